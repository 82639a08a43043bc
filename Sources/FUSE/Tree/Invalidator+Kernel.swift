/// The session's invalidator is what the tree talks to when the store changes.
extension Invalidator: KernelCacheInvalidator {}

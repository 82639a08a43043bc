import Foundation

/// Runs a producer on a thread of its own and hands what it makes, in order, to a consumer
/// on the caller's thread, with at most `capacity` items waiting between them. An import
/// reads and parses the next batch of messages while SQLite writes the current one: two
/// cores instead of one, and the disk reads of a cold Maildir hidden behind the writes.
///
/// Memory stays bounded: the producer waits while `capacity` items are waiting. When the
/// consumer throws, the producer's next `send` fails and it stops; either side's error is
/// rethrown by `run`, which returns only once the producer's thread has finished.
final class BatchPipeline<Item: Sendable>: @unchecked Sendable {
    /// The producer's way to hand over an item; false once the consumer has stopped.
    struct Sender: Sendable {
        fileprivate let pipeline: BatchPipeline

        func send(_ item: Item) -> Bool { pipeline.put(item) }
    }

    /// Thrown inside the producer when the consumer stopped: ends it without a report of
    /// its own (the consumer's error is the one that counts).
    struct ConsumerStopped: Error {}

    private let capacity: Int
    private let condition = NSCondition()
    // GUARDED_BY(condition): everything below.
    private var waiting: [Item] = []
    private var producerDone = false
    private var producerError: Error?
    private var consumerStopped = false

    init(capacity: Int = 1) {
        self.capacity = max(1, capacity)
    }

    /// Runs `produce` on a new thread and `consume` here for each item, in order.
    func run(produce: @escaping @Sendable (Sender) throws -> Void, consume: (Item) throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            var failure: Error?
            do { try produce(Sender(pipeline: self)) } catch is ConsumerStopped {} catch { failure = error }
            finish(failure)
            finished.signal()
        }
        thread.name = "mailfs-import-reader"
        thread.start()
        defer { finished.wait() }
        do {
            while let item = try take() { try consume(item) }
        } catch {
            stopConsuming()
            throw error
        }
    }

    private func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity && !consumerStopped { condition.wait() }
        guard !consumerStopped else { return false }
        waiting.append(item)
        condition.broadcast()
        return true
    }

    /// The next item; nil once the producer has finished and everything was taken.
    private func take() throws -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !producerDone { condition.wait() }
        if !waiting.isEmpty {
            condition.broadcast()
            return waiting.removeFirst()
        }
        if let producerError { throw producerError }
        return nil
    }

    private func finish(_ error: Error?) {
        condition.lock()
        producerDone = true
        producerError = error
        condition.broadcast()
        condition.unlock()
    }

    private func stopConsuming() {
        condition.lock()
        consumerStopped = true
        waiting.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

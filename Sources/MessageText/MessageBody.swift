/// What the renderer has of a message's text.
public enum MessageBody: Sendable {
    /// The whole message, as the `.eml` file holds it: every part is rendered from it.
    case raw([UInt8])
    /// Only the decoded text bodies the store keeps for a message whose bytes are not
    /// stored locally (`ParsedMessage.bodyPlain` and `bodyHTML`).
    case texts(plain: String?, html: String?)
    /// Nothing of the text is here (a large message not yet downloaded): the rendering
    /// says so and names the `.eml` to read, which downloads it.
    case notStored
}

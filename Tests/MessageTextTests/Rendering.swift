import TestSupport
@testable import MessageText

/// Renders test messages: a `TestMessage` whose body and MIME headers the test gives.
enum Rendering {
    /// The text of a message (what follows its heading).
    static func text(headers: [String], body: String) -> String {
        BodyRenderer.text(ofMessage: TestMessage(subject: "Test", headers: ["MIME-Version: 1.0"] + headers, body: body).bytes)
    }

    /// The text of an HTML-only message.
    static func html(_ html: String) -> String {
        text(headers: ["Content-Type: text/html; charset=utf-8"], body: html)
    }

    /// A multipart body from (headers, content) parts, with the boundary `b`.
    static func multipart(_ parts: [(headers: [String], content: String)], boundary: String = "b") -> String {
        parts.map { part in
            "--\(boundary)\r\n" + part.headers.map { $0 + "\r\n" }.joined() + "\r\n" + part.content + "\r\n"
        }.joined() + "--\(boundary)--\r\n"
    }
}

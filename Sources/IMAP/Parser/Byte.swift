/// The ASCII bytes the IMAP grammar is made of.
enum Byte {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openParen = UInt8(ascii: "(")
    static let closeParen = UInt8(ascii: ")")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openAngle = UInt8(ascii: "<")
    static let closeAngle = UInt8(ascii: ">")
    static let plus = UInt8(ascii: "+")
    static let tilde = UInt8(ascii: "~")
    static let asterisk = UInt8(ascii: "*")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let zero = UInt8(ascii: "0")

    static func digitValue(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
    }
}

import Testing
@testable import MailCore

@Suite("Maildir flags from file names")
struct MaildirFlagsTests {
    @Test("the info suffix sets the standard flags", arguments: [
        ("1529425589.M615261P21663.len:2,S", MaildirFlags(seen: true)),
        ("cur/41:2,", MaildirFlags()),
        ("msg:2,DFPRST", MaildirFlags(seen: true, flagged: true, answered: true, draft: true, trashed: true,
                                      passed: true)),
        ("msg!2,FS", MaildirFlags(seen: true, flagged: true)),
        ("msg:2,Sab", MaildirFlags(seen: true)),
        ("msg:1,S", MaildirFlags()),
        ("1234.host", MaildirFlags()),
        ("a:b:2,R", MaildirFlags(answered: true)),
        ("dir:2,S/plain", MaildirFlags()),
        ("", MaildirFlags()),
    ])
    func parsesSuffix(name: String, expected: MaildirFlags) {
        #expect(MaildirFlags.parse(fileName: name) == expected)
    }
}

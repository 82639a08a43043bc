import IMAP
import Store
@testable import Sync
import Testing

/// Which NO and BAD answers to a journal change are given up at once.
@Suite("Permanent refusals")
struct RefusalPermanenceTests {
    func failure(_ command: String, _ status: Status = .no, _ code: ResponseCode? = nil, _ text: String = "no") -> CommandFailure {
        CommandFailure(command: command, status: status, code: code, text: text)
    }

    @Test("codes that name the request or the account are permanent for every command", arguments: [
        ResponseCode.tryCreate, .parse, .other(name: "NONEXISTENT", text: nil), .other(name: "CANNOT", text: nil),
        .other(name: "LIMIT", text: nil), .other(name: "OVERQUOTA", text: nil), .other(name: "NOPERM", text: nil),
        .other(name: "ALREADYEXISTS", text: nil), .other(name: "CLIENTBUG", text: nil),
    ])
    func permanentCodes(code: ResponseCode) {
        #expect(RefusalPermanence.isPermanent(failure("UID MOVE", .no, code)))
        #expect(RefusalPermanence.isPermanent(failure("APPEND", .no, code)))
    }

    @Test("codes that name the moment are retried, APPEND included", arguments: [
        "UNAVAILABLE", "INUSE", "SERVERBUG", "EXPUNGEISSUED", "CORRUPTION",
    ])
    func transientCodes(name: String) {
        #expect(!RefusalPermanence.isPermanent(failure("APPEND", .no, .other(name: name, text: nil))))
        #expect(!RefusalPermanence.isPermanent(failure("UID STORE", .no, .other(name: name, text: nil))))
    }

    @Test("a bare NO to APPEND, CREATE or RENAME is about what it names (a message, a name); to others it is retried")
    func bareNo() {
        #expect(RefusalPermanence.isPermanent(failure("APPEND", .no, nil, "Message contains bare newlines")))
        #expect(RefusalPermanence.isPermanent(failure("CREATE", .no, nil, "Invalid mailbox name")))
        #expect(RefusalPermanence.isPermanent(failure("RENAME", .no, nil, "Invalid mailbox name.")))
        #expect(!RefusalPermanence.isPermanent(failure("DELETE", .no, nil, "Cannot delete currently-open folder")))
        #expect(!RefusalPermanence.isPermanent(failure("UID MOVE", .no, nil, "Mailbox is locked")))
    }

    @Test("BAD is permanent; a lost connection is no refusal at all")
    func badAndConnection() {
        #expect(RefusalPermanence.isPermanent(failure("UID STORE", .bad, nil, "Error in IMAP command")))
        #expect(RefusalPermanence.event(for: .commandFailed(failure("APPEND", .no, .tryCreate)))
                == .refusedForGood("APPEND failed: NO [TRYCREATE] no"))
        #expect(RefusalPermanence.event(for: .commandFailed(failure("UID MOVE")))
                == .refused("UID MOVE failed: NO no"))
    }
}

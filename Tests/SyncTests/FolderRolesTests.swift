import IMAP
import MailCore
import Store
import Testing
@testable import Sync

/// Issue 42 points 1 and 5: a server without SPECIAL-USE (Courier, older Exchange, small
/// hosts) has its Trash found by name, and a personal namespace prefix (`INBOX.`) is not
/// shown (docs/SYNC-RULES.md, "Folders").
@Suite("Folder roles by name and namespaces")
struct FolderRolesTests {
    static let courier = AccountNamespace(prefix: "INBOX.", delimiter: ".", foreignPrefixes: ["#shared."])

    func folder(_ name: String, _ attributes: String..., delimiter: Character = ".") -> ServerFolder {
        ServerFolder(name: name, delimiter: delimiter, attributes: Set(attributes))
    }

    func paths(_ mapped: [MappedFolder]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: mapped.map { ($0.imapPath, $0.path) })
    }

    @Test("Courier: the INBOX. prefix is not shown, and its Trash, Sent, Drafts and Junk are found by name")
    func courier() {
        let mapped = FolderMapping.map([
            folder("INBOX", "\\haschildren"), folder("INBOX.Trash"), folder("INBOX.Sent"), folder("INBOX.Drafts"),
            folder("INBOX.Junk"), folder("INBOX.Projects"), folder("INBOX.Projects.2026"), folder("INBOX.Archive"),
        ], namespace: Self.courier)
        #expect(paths(mapped) == [
            "INBOX": "inbox", "INBOX.Trash": "trash", "INBOX.Sent": "sent", "INBOX.Drafts": "drafts",
            "INBOX.Junk": "spam", "INBOX.Projects": "Projects", "INBOX.Projects.2026": "Projects/2026",
            "INBOX.Archive": "Archive (folder)",
        ])
        #expect(mapped.first { $0.imapPath == "INBOX.Archive" }?.type == .archive)
    }

    static let localized: [(name: String, role: FolderType)] = [
        ("Deleted Items", .trash), ("Deleted Messages", .trash), ("Papierkorb", .trash), ("Corbeille", .trash),
        ("Papelera", .trash), ("Cestino", .trash), ("Prullenbak", .trash), ("Gel&APY-schte Elemente", .trash),
        ("Gesendet", .sent), ("Sent Items", .sent), ("&AMk-l&AOk-ments envoy&AOk-s", .sent), ("Enviados", .sent),
        ("Entw&APw-rfe", .drafts), ("Brouillons", .drafts), ("Bozze", .drafts),
        ("Junk E-mail", .spam), ("Spam", .spam), ("Courrier ind&AOk-sirable", .spam), ("Archiv", .archive),
    ]

    @Test("well-known names in the server's language fill roles", arguments: localized)
    func localizedNames(name: String, role: FolderType) {
        let mapped = FolderMapping.map([folder("INBOX"), folder(name, delimiter: "/")])
        #expect(mapped.first { $0.imapPath == name }?.type == role)
    }

    @Test("a special-use attribute beats a name: the named folder stays ordinary")
    func attributeBeatsName() {
        let mapped = FolderMapping.map([folder("Trash"), folder("Bin", "\\trash"), folder("Sent Items"), folder("Sent", "\\sent")])
        #expect(paths(mapped) == ["Bin": "trash", "Trash": "Trash (folder)", "Sent": "sent", "Sent Items": "Sent Items"])
    }

    @Test("two names for one role: the more usual wins, the other stays ordinary, whatever the order")
    func twoCandidates() {
        for order in [["Deleted Items", "Trash"], ["Trash", "Deleted Items"]] {
            let mapped = FolderMapping.map(order.map { folder($0) })
            #expect(paths(mapped) == ["Trash": "trash", "Deleted Items": "Deleted Items"])
        }
    }

    @Test("names count only at the top, only for selectable folders, and never on Gmail")
    func nameLimits() {
        let mapped = FolderMapping.map([folder("Projects/Trash", delimiter: "/"), folder("Sent", "\\noselect")])
        #expect(mapped.allSatisfy { $0.type == .custom })
        let gmail = FolderMapping.map([folder("[Gmail]/Trash", delimiter: "/"), folder("Trash")], rules: RoleRules(byName: false))
        #expect(gmail.allSatisfy { $0.type == .custom })
    }

    @Test("trash_folder names the Trash by its shown path and beats the \\Trash attribute and names")
    func configuredTrash() {
        let folders = [folder("INBOX.Deleted Items"), folder("INBOX.Old", "\\trash"), folder("INBOX.Papierkorb")]
        let mapped = FolderMapping.map(folders, namespace: Self.courier, rules: RoleRules(trashFolder: "Deleted Items"))
        #expect(paths(mapped) == ["INBOX.Deleted Items": "trash", "INBOX.Old": "Old", "INBOX.Papierkorb": "Papierkorb"])
        let missing = FolderMapping.map(folders, namespace: Self.courier, rules: RoleRules(trashFolder: "Nope"))
        #expect(!missing.contains { $0.type == .trash }, "a missing trash_folder is no Trash, not a guess")
    }

    @Test("INBOX.INBOX and other oddities never become a second inbox")
    func inboxOddities() {
        let mapped = FolderMapping.map([folder("INBOX"), folder("INBOX.INBOX"), folder("INBOX.inbox.x"),
                                        folder("Inbox.Lower"), folder("INBOX.")], namespace: Self.courier)
        #expect(paths(mapped) == ["INBOX": "inbox", "INBOX.INBOX": "INBOX (folder)",
                                  "INBOX.inbox.x": "inbox (folder)/x", "Inbox.Lower": "Lower"])
        #expect(mapped.filter { $0.type == .inbox }.count == 1)
    }

    @Test("other users' and shared folders are not synced; names outside every namespace are kept")
    func foreignNamespaces() {
        let cyrus = AccountNamespace(prefix: "INBOX.", delimiter: ".", foreignPrefixes: ["user.", ""])
        let mapped = FolderMapping.map([folder("INBOX"), folder("INBOX.Work"), folder("user.bob"), folder("user.bob.Sent"),
                                        folder("shared-list")], namespace: cyrus)
        #expect(paths(mapped) == ["INBOX": "inbox", "INBOX.Work": "Work"])
        let dovecot = AccountNamespace(prefix: "", delimiter: "/", foreignPrefixes: ["shared/"])
        let kept = FolderMapping.map([folder("Work", delimiter: "/"), folder("shared/team/x", delimiter: "/")], namespace: dovecot)
        #expect(paths(kept) == ["Work": "Work"])
    }

    static let hostile: [String] = [
        "INBOX...", "INBOX../..", "INBOX.a..b", "INBOX.../etc", "INBOX.a/../../b", "..", "../..", "INBOX.\u{0}",
        "INBOX.\u{1B}[31m", "INBOX. ", "INBOX.&Ai4-", "INBOX.&-", "INBOX.&AC4ALg-", "INBOX.&AC8-",
        String(repeating: "INBOX.", count: 400),
    ]

    @Test("hostile names never give an empty, dot or escaping component", arguments: hostile)
    func hostileNames(name: String) {
        let mapped = FolderMapping.map([folder(name), folder("INBOX")], namespace: Self.courier)
        for entry in mapped {
            let components = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            #expect(components.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\u{0}") })
            #expect(components.allSatisfy { $0.utf8.count <= 255 })
        }
    }
}

@Suite("Account namespace")
struct AccountNamespaceTests {
    @Test("the first personal namespace gives prefix and delimiter; the others are foreign")
    func resolve() {
        let response = NamespaceResponse(personal: [.init(prefix: "INBOX.", delimiter: "."), .init(prefix: "#mh/", delimiter: "/")],
                                         otherUsers: [.init(prefix: "user.", delimiter: ".")],
                                         shared: [.init(prefix: "", delimiter: ".")])
        let namespace = AccountNamespace.resolve(namespace: response, rootDelimiter: "/", listed: [])
        #expect(namespace == AccountNamespace(prefix: "INBOX.", delimiter: ".", foreignPrefixes: ["user.", "", "#mh/"]))
    }

    @Test("without NAMESPACE the delimiter comes from LIST \"\" \"\", else from the folders listed")
    func delimiterFallbacks() {
        let listed = [MailboxListEntry(attributes: [], delimiter: ".", name: "INBOX"),
                      MailboxListEntry(attributes: [], delimiter: ".", name: "INBOX.a")]
        #expect(AccountNamespace.resolve(namespace: nil, rootDelimiter: "/", listed: listed).delimiter == "/")
        #expect(AccountNamespace.resolve(namespace: nil, rootDelimiter: nil, listed: listed).delimiter == ".")
        #expect(AccountNamespace.resolve(namespace: nil, rootDelimiter: nil, listed: []).delimiter == nil)
        let noDelimiter = NamespaceResponse(personal: [.init(prefix: "INBOX.", delimiter: nil)])
        #expect(AccountNamespace.resolve(namespace: noDelimiter, rootDelimiter: ".", listed: []).delimiter == ".")
    }

    @Test("a new folder's server name: the prefix added, a parent's name kept, the display suffix gone")
    func serverNames() {
        let courier = AccountNamespace(prefix: "INBOX.", delimiter: ".")
        let folders: [(path: String, imapPath: String)] = [
            ("Projects", "INBOX.Projects"), ("Sent (folder)", "INBOX.Sent"), ("A", "mailfs-hierarchy:A"),
        ]
        func name(_ path: String, _ namespace: AccountNamespace = courier) -> String? {
            try? FolderServerName.name(forPath: path, folders: folders, namespace: namespace)
        }
        #expect(name("X") == "INBOX.X")
        #expect(name("Projects/2026") == "INBOX.Projects.2026")
        #expect(name("Sent (folder)/Old") == "INBOX.Sent.Old")
        #expect(name("INBOX (folder)/X") == "INBOX.INBOX.X")
        #expect(name("trash (folder)") == "INBOX.trash")
        #expect(name("Notes (folder)") == "INBOX.Notes (folder)")
        #expect(name("A/B") == "INBOX.A.B")
        #expect(name("Entwürfe") == "INBOX.Entw&APw-rfe")
        #expect(name("X", AccountNamespace(prefix: "", delimiter: "/")) == "X")
        #expect(name("") == nil)
    }

    @Test("a new folder name holding the server's delimiter is refused, not made into two levels")
    func delimiterInName() {
        let cyrus = AccountNamespace(prefix: "INBOX.", delimiter: ".")
        let folders: [(path: String, imapPath: String)] = [("Projects", "INBOX.Projects")]
        func refusal(_ path: String, _ namespace: AccountNamespace = cyrus) -> FolderServerName.Refusal? {
            do {
                _ = try FolderServerName.name(forPath: path, folders: folders, namespace: namespace)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal("v9.9") == .holdsDelimiter(component: "v9.9", delimiter: "."))
        #expect(refusal("Projects/v1.2") == .holdsDelimiter(component: "v1.2", delimiter: "."))
        #expect(refusal("v9.9", AccountNamespace(prefix: "", delimiter: "/")) == nil)
        #expect(refusal("") == .empty)
        #expect(refusal("v9_9") == nil)
    }
}

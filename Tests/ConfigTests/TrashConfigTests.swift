import Testing
@testable import Config

/// `trash_folder` and `delete_without_trash` (issue 42 point 1): what rm does on a server
/// whose Trash mailfs cannot find.
@Suite("trash_folder and delete_without_trash")
struct TrashConfigTests {
    @Test("both default to finding the Trash and refusing rm without one; [defaults] and accounts set them")
    func values() throws {
        #expect(try ConfigFixtures.parse(ConfigFixtures.minimalAccount).accounts[0].settings.trashFolder == nil)
        #expect(try ConfigFixtures.parse(ConfigFixtures.minimalAccount).accounts[0].settings.deleteWithoutTrash == false)
        let config = try ConfigFixtures.parse("""
            [defaults]
            delete_without_trash = true
            trash_folder = "Bin"

            [accounts.work]
            address = "me@example.com"
            password_command = "pass show mail/work"
            trash_folder = "Deleted Items/Old"
            delete_without_trash = false
            imap = { host = "imap.example.com" }

            [accounts.home]
            address = "me@home.example"
            password_command = "pass show mail/home"
            imap = { host = "imap.home.example" }
            """)
        let byName = Dictionary(uniqueKeysWithValues: config.accounts.map { ($0.name, $0.settings) })
        #expect(byName["work"]?.trashFolder == "Deleted Items/Old" && byName["work"]?.deleteWithoutTrash == false)
        #expect(byName["home"]?.trashFolder == "Bin" && byName["home"]?.deleteWithoutTrash == true)
    }

    @Test("a wrong value names file, line and key", arguments: [
        ("delete_without_trash = \"yes\"", "config.toml:4: accounts.work.delete_without_trash: expected true or false, got \"yes\""),
        ("delete_without_trash = 1", "config.toml:4: accounts.work.delete_without_trash: expected true or false, got 1"),
        ("trash_folder = \"\"", "config.toml:4: accounts.work.trash_folder: expected a folder path such as \"Deleted Items\", got \"\""),
        ("trash_folder = \"a//b\"", "config.toml:4: accounts.work.trash_folder: expected a folder path such as \"Deleted Items\", got \"a//b\""),
        ("trash_folder = \"../etc\"", "config.toml:4: accounts.work.trash_folder: expected a folder path such as \"Deleted Items\", got \"../etc\""),
        ("trash_folder = \"/Trash\"", "config.toml:4: accounts.work.trash_folder: expected a folder path such as \"Deleted Items\", got \"/Trash\""),
        ("trash_folder = 3", "config.toml:4: accounts.work.trash_folder: expected a string, got 3"),
    ])
    func refused(line: String, message: String) throws {
        let text = "[accounts.work]\naddress = \"me@example.com\"\npassword_command = \"pass show mail/work\"\n"
            + line + "\n[accounts.work.imap]\nhost = \"imap.example.com\"\n"
        #expect(ConfigFixtures.error(text)?.description == message)
    }
}

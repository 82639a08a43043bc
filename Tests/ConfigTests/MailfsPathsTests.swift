import Testing
@testable import Config

@Suite("Where mailfs keeps its files")
struct MailfsPathsTests {
    struct PathCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let environment: [String: String]
        let configFile: String
        let dataDirectory: String
    }

    static let cases: [PathCase] = [
        PathCase(
            testDescription: "HOME only", environment: ["HOME": "/home/ann"],
            configFile: "/home/ann/.config/mailfs/config.toml", dataDirectory: "/home/ann/.local/share/mailfs"),
        PathCase(
            testDescription: "XDG variables set",
            environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg", "XDG_DATA_HOME": "/data/"],
            configFile: "/cfg/mailfs/config.toml", dataDirectory: "/data/mailfs"),
        PathCase(
            testDescription: "empty and relative XDG values are ignored",
            environment: ["HOME": "/home/ann/", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "rel/data"],
            configFile: "/home/ann/.config/mailfs/config.toml", dataDirectory: "/home/ann/.local/share/mailfs"),
        PathCase(
            testDescription: "no HOME falls back to the passwd home", environment: ["XDG_DATA_HOME": "/d"],
            configFile: "/pw/home/.config/mailfs/config.toml", dataDirectory: "/d/mailfs"),
        PathCase(
            testDescription: "a relative HOME is not trusted", environment: ["HOME": "home"],
            configFile: "/pw/home/.config/mailfs/config.toml", dataDirectory: "/pw/home/.local/share/mailfs"),
    ]

    @Test("paths follow the XDG rules", arguments: cases)
    func resolve(_ testCase: PathCase) throws {
        let paths = try MailfsPaths(environment: testCase.environment, fallbackHome: "/pw/home")
        #expect(paths.configFile == testCase.configFile)
        #expect(paths.dataDirectory == testCase.dataDirectory)
        #expect(paths.configFile == paths.configDirectory + "/config.toml")
    }

    @Test("with no home anywhere, resolving fails with an explanation")
    func noHome() {
        #expect(throws: PathsError(variable: "XDG_CONFIG_HOME")) {
            try MailfsPaths(environment: [:], fallbackHome: nil)
        }
    }

    @Test("the passwd home directory of the current user is absolute")
    func passwdHome() {
        if let home = MailfsPaths.passwdHomeDirectory() {
            #expect(home.hasPrefix("/"))
        }
    }
}

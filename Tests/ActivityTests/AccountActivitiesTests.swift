import Activity
import Testing

@Suite("Account activities and their profiles")
struct AccountActivitiesTests {
    @Test("an account the config does not name is offline with the config's default guard; a configured one keeps its own")
    func importedAccountsTakeTheDefaultGuard() {
        let configured = AccountProfile(name: "work", address: "me@example.org", provider: .generic, auth: .plain,
                                        imap: "imap.example.org:993 tls", smtp: "none", deleteGuard: 7)
        let activities = AccountActivities(profiles: [configured], importedDeleteGuard: 0)
        let imported = activities.activity(named: "local", address: "me@local").profile
        #expect(imported.provider == .offline)
        #expect(imported.deleteGuard == 0)
        #expect(activities.activity(named: "work", address: "").profile.deleteGuard == 7)
        #expect(AccountActivities(profiles: []).activity(named: "local", address: "").profile.deleteGuard == 100,
                "without a config, the built-in 100")
    }
}

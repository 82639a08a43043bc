/// The configuration file explained, for `mailfs help config` and `mailfs mount --help`.
/// swift-argument-parser re-wraps every line longer than its 80 columns, so each line here
/// stays within `maximumLineLength`.
public enum ConfigHelp {
    /// The longest line that survives the help formatter's wrapping unchanged.
    public static let maximumLineLength = 79

    /// A complete config with a generic IMAP account and a Gmail account using XOAUTH2.
    /// The tests parse it, so the help can never show a config mailfs would refuse.
    public static let example = """
        [defaults]
        sync_window_days = 30

        [accounts.work]
        address = "me@example.com"
        password_command = "pass show mail/work"
        aliases = ["me@alias.example"]

        [accounts.work.imap]
        host = "imap.example.com"
        port = 993
        security = "tls"

        [accounts.work.smtp]
        host = "smtp.example.com"
        port = 587
        security = "starttls"

        [accounts.personal]
        address = "me@gmail.com"
        auth = "xoauth2"
        token_command = "oauth2-token me@gmail.com"
        sync_window_days = 90

        [accounts.personal.imap]
        host = "imap.gmail.com"

        [accounts.personal.smtp]
        host = "smtp.gmail.com"

        [accounts.personal.searches]
        from-school = "from:school.example"

        [searches]
        unread-invoices = "subject:invoice tag:unread"
        this-week = "date:7d.. -folder:spam"
        """

    /// The values a setting takes when the config leaves it out, as the reference shows them.
    private static let builtIn = AccountSettings()

    public static let helpText = """
        CONFIGURATION
          File: $XDG_CONFIG_HOME/mailfs/config.toml
                (default ~/.config/mailfs/config.toml); --config FILE uses another.
          Without a config file, ./mount DIR mounts an offline demo account.
          Local data: $XDG_DATA_HOME/mailfs/ (default ~/.local/share/mailfs/).
          An invalid config is refused with its file, line and key; unknown keys
          are refused, so typos are caught. `mailfs config` checks the file.

        [defaults]  (all optional; each may also be set in an account's table)
          sync_window_days = \(builtIn.syncWindowDays)     days of mail to sync: 7, 14, 30, 60 or 90
          cache_limit_mb = \(builtIn.cacheLimitMB)      downloaded content kept per account, then the
                                    least recently used is evicted
          raw_store_max_kb = \(builtIn.rawStoreMaxKB)    messages up to this size are stored whole at sync
          undo_seconds = \(builtIn.undoSeconds)          delay before an outbox message is sent (rm cancels
                                    it): 0, 5, 10, 15 or 30
          delete_guard = \(builtIn.deleteGuard)        more deletions than this per minute wait for
                                    "echo confirm-deletes > ACCOUNT/.control"; 0: off
          max_connections = \(builtIn.maxConnections)       IMAP connections per account (1-30)
          connect_timeout_seconds = \(builtIn.connectTimeoutSeconds)   a server silent this long is down
          retry_delay_seconds = \(builtIn.retryDelaySeconds)   first retry after a failed connection; then 3x, 9x
          poll_interval_seconds = \(builtIn.pollIntervalSeconds)    how often every folder is synced
          send_retry_delay_seconds = \(builtIn.sendRetryDelaySeconds)  first retry of a failed send; then 4x, 16x
          trash_folder = "NAME"     the server folder rm moves mail to, as the tree
                                    shows it ("Deleted Items"); default: the folder
                                    the server marks \\Trash, else one named like a
                                    Trash (Trash, Deleted Items, Papierkorb...)
          delete_without_trash = \(builtIn.deleteWithoutTrash)   true: with no Trash found, rm deletes for
                                    good; false: such an rm is refused (EPERM)

        [accounts.NAME]  (NAME is the account's directory: letters, digits,
                          - _ . ; not starting with '.', not "inbox" or "search")
          address = "me@example.com"       required
          username = "..."                 login name; default: address
          auth = "plain"                   plain | xoauth2
          password_command = "..."         with auth = "plain": prints the password
          token_command = "..."            with auth = "xoauth2": prints an access
                                           token
          provider = "generic"             gmail | generic (default: gmail for
                                           Gmail hosts)
          ca_file = "/path/ca.pem"         extra trusted CA, beside the system's
          aliases = ["..."]                other addresses allowed as From

        [accounts.NAME.imap]  (required)
          host = "imap.example.com"        required
          security = "tls"                 tls | starttls (a server without
                                           STARTTLS is refused)
          port = 993                       default 993 (tls) or 143 (starttls)

        [accounts.NAME.smtp]  (optional; without it the account cannot send)
          host = "smtp.example.com"        required
          security = "tls"                 tls | starttls
          port = 465                       default 465 (tls) or 587 (starttls)

          Secrets are never stored: mailfs runs the command when it needs the
          secret and uses its standard output (like mbsync's PassCmd), and never
          writes it to disk, .status or .log.

        [searches]  (optional: saved searches, NAME = "QUERY")
          unread-invoices = "subject:invoice tag:unread"
                                           a directory of <mount>/search/ and of
                                           every account's search/; any other name
                                           looked up there runs as a query
                                           (notmuch's language, see README)
        [accounts.NAME.searches]           the same, in that account's search/ only

        EXAMPLE: a generic IMAP account, a Gmail account with OAuth2, saved searches

        \(example.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n"))
        """
}

/// The systemd user unit that mounts the mail at login (`mailfs install-service`; the
/// repository's contrib/systemd/mailfs.service is this text for /usr/local/bin/mailfs and
/// ~/Mail, and a test keeps the two equal).
enum ServiceUnit {
    static let fileName = "mailfs.service"

    /// Exit status of a stop that left messages queued in an outbox: not a failure of the
    /// service (they are sent at the next start), but told apart from a stop with nothing
    /// left (EX_TEMPFAIL).
    static let stoppedWithQueuedMail: Int32 = 75

    /// `mountPoint` is absolute; under `home` it is written `%h/…`, so the unit reads the
    /// same for whoever installs it.
    static func text(binary: String, mountPoint: String, home: String?) -> String {
        let mount = home.flatMap { home in
            mountPoint.hasPrefix(home + "/") ? "%h/" + escaped(String(mountPoint.dropFirst(home.count + 1))) : nil
        } ?? escaped(mountPoint)
        return """
            # mailfs as a systemd user service: the mail is mounted at login and its log is in
            # `journalctl --user -u mailfs`. Written by `mailfs install-service`; enable it with
            # `systemctl --user daemon-reload && systemctl --user enable --now mailfs`.
            [Unit]
            Description=mailfs: email as a filesystem
            StartLimitIntervalSec=600
            StartLimitBurst=5

            [Service]
            Type=notify
            NotifyAccess=main
            ExecStart=\(quoted(escaped(binary))) mount \(quoted(mount))
            # A clean unmount; if the mount is busy, the SIGTERM that follows unmounts it.
            ExecStop=-/usr/bin/fusermount3 -u \(quoted(mount))
            Restart=on-failure
            RestartSec=10
            SuccessExitStatus=\(stoppedWithQueuedMail)
            TimeoutStopSec=60

            [Install]
            WantedBy=default.target

            """
    }

    /// systemd expands `%` specifiers in command lines: a literal one is `%%`.
    private static func escaped(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%%")
    }

    /// A command-line word in double quotes when it holds a blank or a quote.
    private static func quoted(_ word: String) -> String {
        guard word.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "\\" || $0 == "'" }) else { return word }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

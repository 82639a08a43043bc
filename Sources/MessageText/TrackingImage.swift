/// Whether an `<img>` is there to report that the message was opened rather than to be
/// seen: a pixel (every dimension given is 0 or 1), a hidden image, or one served by a
/// known tracking host. Such images are removed from the text and counted. Nothing is ever
/// fetched: the decision reads the tag alone.
enum TrackingImage {
    static func isTracking(width: String?, height: String?, style: InlineStyle, isHidden: Bool,
                           source: String?) -> Bool {
        if isHidden || style.isHidden { return true }
        let dimensions = [width.flatMap(InlineStyle.pixels), height.flatMap(InlineStyle.pixels),
                          style.width, style.height].compactMap { $0 }
        if !dimensions.isEmpty, dimensions.allSatisfy({ $0 <= 1 }) { return true }
        return source.flatMap(host).map(isBlocked) ?? false
    }

    /// The lower-cased host of an absolute http(s) URL.
    static func host(of url: String) -> String? {
        let lowered = url.lowercased().drop(while: { $0 == " " })
        guard let schemeEnd = lowered.range(of: "://"),
              ["http", "https"].contains(lowered[..<schemeEnd.lowerBound]) else { return nil }
        var authority = lowered[schemeEnd.upperBound...].prefix(while: { !"/?#".contains($0) })
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host = authority.prefix(while: { $0 != ":" })
        return host.isEmpty ? nil : String(host)
    }

    /// A host on the blocklist or under one of its domains.
    static func isBlocked(_ host: String) -> Bool {
        var domain = Substring(host)
        while true {
            if blockedHosts.contains(String(domain)) { return true }
            guard let dot = domain.firstIndex(of: ".") else { return false }
            domain = domain[domain.index(after: dot)...]
        }
    }

    /// Hosts that serve open-tracking pixels of mailing services and mail trackers (their
    /// images and nothing a reader needs). Small on purpose: the pixel rule above catches
    /// most trackers; this catches those that size their pixel with CSS a mailer strips.
    static let blockedHosts: Set<String> = [
        "list-manage.com",          // Mailchimp opens (track/open.php)
        "mandrillapp.com",          // Mandrill opens
        "sendgrid.net",             // SendGrid opens (wf/open)
        "emltrk.com",               // Litmus email analytics
        "google-analytics.com",
        "doubleclick.net",
        "pixel.wp.com",
        "api.mixpanel.com",
        "mailtrack.io",
        "mailstat.us",              // Streak
        "t.yesware.com",
        "bananatag.com",
        "getnotify.com",
        "readnotify.com",
        "t.sidekickopen.com",       // HubSpot Sales
    ]
}

import Config
import FuzzDriver

/// The configuration file: TOML, then mailfs's own validation (keys, accounts, endpoints,
/// credentials, saved searches). Anything is accepted or refused with a message.
fuzz { bytes in
    let value = text(bytes)
    do throws(ConfigError) {
        _ = try MailfsConfig.parse(text: value, path: "/fuzz/config.toml", environment: ["HOME": "/fuzz-home"])
    } catch {
        precondition(!error.description.isEmpty, "a refusal without a message")
    }
}

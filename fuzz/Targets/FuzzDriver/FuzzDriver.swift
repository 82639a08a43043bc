/// Runs libFuzzer over one body. SwiftPM links every executable with its own `main` (the
/// target's top-level code), which hides libFuzzer's; so each target's main.swift hands its
/// body here and libFuzzer's driver takes over (argv holds libFuzzer's flags and corpora).
///
///     fuzz { bytes in _ = MessageParser.parse(bytes) }
public func fuzz(_ body: @escaping @Sendable ([UInt8]) -> Void) -> Never {
    fuzzBody = body
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        fuzzBody?(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    })
}

/// The input as text, as a header value or a config file would be read (invalid UTF-8 replaced).
public func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

/// The body libFuzzer calls; a C callback cannot capture it. Set once before the driver starts.
nonisolated(unsafe) private var fuzzBody: (@Sendable ([UInt8]) -> Void)?

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_silgen_name("exit")
private func exit(_ status: CInt) -> Never

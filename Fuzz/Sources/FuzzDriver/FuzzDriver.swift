// Runs libFuzzer from a fuzz target's main.

/// libFuzzer's entry for programs with a main of their own (SwiftPM names each executable's
/// main `<Module>_main`, so libFuzzer's own cannot be the program's).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the program's arguments, calling `input` for every input it makes.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ input: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32 {
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv, input)
}

/// The bytes libFuzzer hands a target.
public func fuzzBytes(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: start, count: count))
}

/// Stops the run: what a target found is a finding (libFuzzer keeps the input that did it).
public func finding(_ message: String) -> Never {
    fatalError("fuzz finding: \(message)")
}

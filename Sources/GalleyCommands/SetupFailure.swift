// Errors found before any work starts that are not about how the command was typed.

import ArgumentParser
import Foundation

/// A problem with what the command was given (a file that cannot be read, a template that does
/// not compile): one plain line on standard error, no usage text after it, and the usage exit
/// status (64, `EX_USAGE`), as for a mistyped option.
func setupFailure(_ message: String) -> ExitCode {
    StandardError.write("Error: \(message)\n")
    return ExitCode(64)
}

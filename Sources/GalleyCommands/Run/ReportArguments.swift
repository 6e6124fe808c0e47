// Whether a run reports its progress and summary.

import ArgumentParser

struct ReportArguments: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print no progress line (shown when standard error is a terminal) and no summary.")
    var quiet = false
}

// The `galley` executable: the commands of GalleyCommands, allocating through jemalloc.

import GalleyCommands
import Glibc

// A standard descriptor the parent left closed (`2>&-`) would be the number the next file
// opened gets (the output, the database), and messages meant for it would be written over that
// file: each is opened on /dev/null first, in order, so that each open takes the number missing.
for descriptor in STDIN_FILENO...STDERR_FILENO where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
    guard open("/dev/null", O_RDWR) == descriptor else { exit(71) }  // EX_OSERR
}
// A reader of the output that goes away (`| head`) shows as EPIPE on a write, which ends the
// run quietly after whole lines, rather than as a signal that ends it wherever it is.
signal(SIGPIPE, SIG_IGN)
// SIGINT and SIGTERM end a run between chunks; a parent may have left them blocked (the mask is
// inherited), which would leave them pending until the end.
var stopping = sigset_t()
sigemptyset(&stopping)
sigaddset(&stopping, SIGINT)
sigaddset(&stopping, SIGTERM)
sigprocmask(SIG_UNBLOCK, &stopping, nil)
// Text printed through the C library's buffer (help, the version) is flushed at exit: a write
// that failed there ends with the status a command's own output gives (141 for a reader that
// went away, else 1, said on standard error).
atexit {
    guard fflush(nil) != 0 else { return }
    let reason = errno
    if reason == EPIPE { _exit(141) }
    let message = "galley: cannot write standard output: \(String(cString: strerror(reason)))\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    _exit(1)
}
exit(Galley.run(Array(CommandLine.arguments.dropFirst())))

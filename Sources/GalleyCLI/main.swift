// The `galley` executable: the commands of GalleyCommands, allocating through jemalloc.

import GalleyCommands
import Glibc

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
Galley.main()

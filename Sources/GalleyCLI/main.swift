// The `galley` executable: the commands of GalleyCommands, allocating through jemalloc.

import GalleyCommands

Galley.main()

package main

import "flag"

// update rewrites the golden files this package's tests compare with (the
// sample audit's summary, the ingest command's account): the one -update
// flag every package of the project uses for its golden files.
var update = flag.Bool("update", false, "rewrite the golden files the tests compare with")

// Package atomicfile replaces files so that a reader, or a run interrupted
// half-way, only ever sees the old content or the new, never a part.
package atomicfile

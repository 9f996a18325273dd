package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// minSpillSpace is the least free disk space an audit starts with where it
// spills: below it, a log of any size fails once DuckDB's memory is full,
// after the minutes of reading.
const minSpillSpace = 256 << 20

// CheckSpillSpace tells before the logs are read whether the file system
// of dir (where DuckDB spills and the outputs are written) has room: an
// error when it has less than 256 MiB free, a warning when it has less
// than the logs' size (a bound of what the audit stores: compressed logs
// count eight times), "" when it looks enough or cannot be told (standard
// input, a system without statfs).
func CheckSpillSpace(dir string, logs []string) (warning string, err error) {
	free, ok := freeSpace(dir)
	if !ok {
		return "", nil
	}
	if free < minSpillSpace {
		return "", fmt.Errorf("only %s free on the disk of %s, where the audit keeps what does not fit in memory and writes its files: free some space there, or write the outputs on another disk", humanBytes(free), dir)
	}
	var need uint64
	for _, l := range logs {
		fi, err := os.Stat(l)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		n := uint64(fi.Size())
		switch strings.ToLower(filepath.Ext(l)) {
		case ".gz", ".zst", ".bz2", ".zstd":
			n *= 8
		}
		need += n
	}
	if need > free {
		return fmt.Sprintf("%s free on the disk of %s for %s of logs: an audit with many bot requests may run out of space there late in the run (it spills what does not fit in memory beside its outputs)", humanBytes(free), dir, humanBytes(need)), nil
	}
	return "", nil
}

// humanBytes writes n in binary units, for messages.
func humanBytes(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

package auditflags

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/crawlaudit/crawlaudit/ingest/objstore"
)

// MissingLogs returns an error naming the first LOG argument that names
// nothing: a path that does not exist, a glob that matches no file. It is
// checked before the audit starts, so that a typo'd path fails before any
// table is printed.
func MissingLogs(logs []string) error {
	for _, l := range logs {
		if l == "-" || objstore.IsURL(l) {
			continue // objects are listed when read; a missing one is an input error then
		}
		_, err := os.Stat(l)
		if err == nil {
			continue
		}
		if strings.ContainsAny(l, "*?[") {
			m, err := filepath.Glob(l)
			if err != nil {
				return fmt.Errorf("%s: bad pattern: %v", l, err)
			}
			if len(m) == 0 {
				return fmt.Errorf("%s: no file matches", l)
			}
			continue
		}
		return err
	}
	return nil
}

//go:build duckdb_arrow

package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crawlaudit/crawlaudit/audit/store"
)

// auditTables are the tables and views a crawlaudit database holds, in
// this version and earlier ones.
var auditTables = []string{"judged", "measures", "measured", "requests", "requests_store", "dict", "bots", "traffic", "policies", "decisions", "claims", "availability", "robots_status"}

// checkReplaceable refuses a --db FILE that the new audit must not
// replace: not a regular file, not a DuckDB database (a log file given by
// mistake), or one that holds tables crawlaudit did not make. A FILE that
// does not exist yet, or is empty, is fine.
func checkReplaceable(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			return fmt.Errorf("--db %s: %w", path, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("--db %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("--db %s: not a regular file", path)
	case fi.Size() == 0:
		return nil
	}
	s, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		return fmt.Errorf("--db %s exists and is not a DuckDB database crawlaudit can open (%v): give the path of a new file or of an earlier audit", path, firstLine(err.Error()))
	}
	defer s.Close()
	var foreign []string
	err = s.Each(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1`, nil, func(vals []any) error {
		if name, _ := vals[0].(string); !slices.Contains(auditTables, name) {
			foreign = append(foreign, name)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("--db %s: %w", path, err)
	}
	if len(foreign) > 0 {
		return fmt.Errorf("--db %s holds tables crawlaudit did not make (%s): the audit replaces the whole file, so give another path", path, strings.Join(foreign, ", "))
	}
	return nil
}

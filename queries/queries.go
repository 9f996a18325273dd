package queries

import (
	"embed"
	"fmt"
)

//go:embed *.sql
var files embed.FS

// SQL returns the text of the named file ("summary.sql"). It panics if the
// file does not exist: the names are constants of the program.
func SQL(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(fmt.Sprintf("queries: no embedded file %q", name))
	}
	return string(b)
}

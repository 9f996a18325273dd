//go:build duckdb_arrow

package store

import (
	"context"
	"database/sql"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// Version returns the version of the DuckDB engine linked in
// ("v1.5.5"), asked of an in-memory database.
func Version(ctx context.Context) (string, error) {
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		return "", err
	}
	db := sql.OpenDB(c)
	defer db.Close()
	var v string
	err = db.QueryRowContext(ctx, "SELECT version()").Scan(&v)
	return v, err
}

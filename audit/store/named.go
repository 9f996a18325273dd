//go:build duckdb_arrow

package store

import (
	"context"
	"fmt"
	"strings"
)

// IDName is a column of ids into the table dict that Named names.
type IDName struct {
	ID, As string // the id column, and the name column added for it
	// Many: the column may hold as many distinct values as there are
	// rows (addresses, paths, User-Agents, bot names): it is named in a
	// step of its own.
	Many bool
}

// Named runs rows (one query over the requests' ids), stores its result
// in the temporary table dst and adds to it a name column (dict's value,
// NULL for a NULL or unknown id) for each of cols, one join at a time:
// first the columns with few values at once, against the dict entries they
// use, then each of the others against the entries it uses. The view
// judged joins dict twelve times in one query, which keeps twelve hash
// tables of the whole dict at once: with millions of invented bot names
// that did not fit in DuckDB's memory limit; a step here holds one. The
// caller drops dst.
func (s *Store) Named(ctx context.Context, dst, rows string, cols []IDName) error {
	if err := s.Exec(ctx, "DROP TABLE IF EXISTS "+dst); err != nil {
		return err
	}
	step := 0
	tmp := func() string { step++; return fmt.Sprintf("%s_step_%d", dst, step) }
	cur := tmp()
	if err := s.Exec(ctx, "CREATE OR REPLACE TEMP TABLE "+cur+" AS\n"+strings.TrimRight(strings.TrimSpace(rows), ";")); err != nil {
		return err
	}
	next := func(query string) error {
		t := tmp()
		if err := s.Exec(ctx, "CREATE OR REPLACE TEMP TABLE "+t+" AS\n"+query); err != nil {
			return err
		}
		err := s.Exec(ctx, "DROP TABLE "+cur)
		cur = t
		return err
	}
	var few []IDName
	for _, c := range cols {
		if !c.Many {
			few = append(few, c)
		}
	}
	if len(few) > 0 {
		var used, sel, joins []string
		for i, c := range few {
			used = append(used, fmt.Sprintf("SELECT %s AS id FROM %s", c.ID, cur))
			sel = append(sel, fmt.Sprintf("d%d.value AS %s", i, c.As))
			joins = append(joins, fmt.Sprintf("LEFT JOIN few d%d ON d%d.id = r.%s", i, i, c.ID))
		}
		q := fmt.Sprintf("WITH few AS (SELECT id, value FROM dict SEMI JOIN (%s) u USING (id))\nSELECT r.*, %s\nFROM %s r\n%s",
			strings.Join(used, " UNION "), strings.Join(sel, ", "), cur, strings.Join(joins, "\n"))
		if err := next(q); err != nil {
			return err
		}
	}
	for _, c := range cols {
		if !c.Many {
			continue
		}
		q := fmt.Sprintf("SELECT r.*, d.value AS %s\nFROM %s r\nLEFT JOIN (SELECT id, value FROM dict SEMI JOIN (SELECT DISTINCT %s AS id FROM %s) u USING (id)) d ON d.id = r.%s",
			c.As, cur, c.ID, cur, c.ID)
		if err := next(q); err != nil {
			return err
		}
	}
	return s.Exec(ctx, "ALTER TABLE "+cur+" RENAME TO "+dst)
}

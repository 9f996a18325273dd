package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// CSVWriter writes CSV files (RFC 4180, through encoding/csv, LF line ends)
// that are safe to open in a spreadsheet although their strings come from
// access logs and so from attackers. A row is built cell by cell with the
// typed methods and ended with EndRow:
//
//   - Text cells go through SafeCell: a cell that a spreadsheet would read as
//     a formula gets a leading apostrophe, and control characters are
//     escaped. Use it for every string, including those the program makes.
//   - Int, Uint, Float, Bool and Time cells are written by the program from
//     numbers, so they are not neutralised: a negative number stays a number
//     ("-3"), which SafeCell would turn into text ("'-3").
//
// Errors are sticky: after a failed write every EndRow, Header and Flush
// returns the first error. A CSVWriter is not safe for concurrent use.
type CSVWriter struct {
	w   *csv.Writer
	row []string
	err error
}

// NewCSVWriter returns a CSVWriter writing to w. Call Flush when done.
func NewCSVWriter(w io.Writer) *CSVWriter {
	return &CSVWriter{w: csv.NewWriter(w)}
}

// Header writes a row of text cells, as column names.
func (c *CSVWriter) Header(names ...string) error {
	for _, n := range names {
		c.Text(n)
	}
	return c.EndRow()
}

// Text appends a text cell holding s, neutralised by SafeCell.
func (c *CSVWriter) Text(s string) { c.row = append(c.row, SafeCell(s)) }

// Int appends a numeric cell.
func (c *CSVWriter) Int(n int64) { c.row = append(c.row, strconv.FormatInt(n, 10)) }

// Uint appends a numeric cell.
func (c *CSVWriter) Uint(n uint64) { c.row = append(c.row, strconv.FormatUint(n, 10)) }

// Float appends a numeric cell with prec digits after the point, or the
// fewest that represent f exactly when prec is -1. NaN and infinities are
// written as an empty cell: a spreadsheet has no number for them, and
// "-Inf" would start like a formula.
func (c *CSVWriter) Float(f float64, prec int) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		c.Null()
		return
	}
	c.row = append(c.row, strconv.FormatFloat(f, 'f', prec, 64))
}

// Bool appends "true" or "false".
func (c *CSVWriter) Bool(b bool) { c.row = append(c.row, strconv.FormatBool(b)) }

// Time appends t in UTC as RFC 3339 with as many fractional digits as it
// needs ("2026-10-01T12:00:00Z", "2026-10-01T12:00:00.25Z"); the zero time is
// an empty cell.
func (c *CSVWriter) Time(t time.Time) {
	if t.IsZero() {
		c.Null()
		return
	}
	c.row = append(c.row, t.UTC().Format(time.RFC3339Nano))
}

// Null appends an empty cell (a missing value).
func (c *CSVWriter) Null() { c.row = append(c.row, "") }

// EndRow writes the cells appended since the last EndRow as one record.
func (c *CSVWriter) EndRow() error {
	if c.err == nil {
		if err := c.w.Write(c.row); err != nil {
			c.err = fmt.Errorf("cannot write CSV record: %w", err)
		}
	}
	c.row = c.row[:0]
	return c.err
}

// Flush writes any buffered data to the underlying writer and returns the
// first error of any write.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	if c.err == nil {
		if err := c.w.Error(); err != nil {
			c.err = fmt.Errorf("cannot write CSV: %w", err)
		}
	}
	return c.err
}

// SafeCell returns s made safe as a spreadsheet cell, since the
// strings of a log are written by whoever sent the request:
//
//   - Formula injection (the OWASP rule): when s starts with '=', '+', '-',
//     '@', TAB or CR — after any leading spaces, which spreadsheets may skip,
//     and counting the full-width forms U+FF1D, U+FF0B, U+FF0D and U+FF20,
//     which some applications fold to ASCII — it is prefixed with an
//     apostrophe, which spreadsheets take as "text" and do not display.
//   - Control characters are escaped so that a cell cannot break a line or
//     write terminal escape sequences: C0 controls (LF, CR and TAB among
//     them), DEL and bytes that are not UTF-8 become \xHH (uppercase hex, as
//     nginx writes them); C1 controls, the Unicode line and paragraph
//     separators, the bidirectional formatting characters (which can make a
//     cell display reversed) and U+FEFF become \uHHHH.
//
// A backslash is not escaped, so "\x41" in a log and an escaped 'A' read the
// same; the ingest layer writes invalid bytes the same way. SafeCell returns
// s itself, without allocating, when nothing needs changing.
func SafeCell(s string) string {
	if formulaLike(s) {
		return "'" + escapeControls(s)
	}
	return escapeControls(s)
}

// escapeControls writes control characters, invalid UTF-8 and the other
// runes listed for SafeCell as escapes. It returns s itself, without
// allocating, when there are none.
func escapeControls(s string) string {
	i := 0
	for i < len(s) {
		b := s[i]
		if b >= 0x20 && b < 0x7F {
			i++
			continue
		}
		if b < 0x80 {
			break
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || escapedRune(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	sb.WriteString(s[:i])
	for i < len(s) {
		b := s[i]
		if b < 0x80 {
			if b < 0x20 || b == 0x7F {
				writeHexByte(&sb, b)
			} else {
				sb.WriteByte(b)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			writeHexByte(&sb, b)
		case escapedRune(r):
			fmt.Fprintf(&sb, `\u%04X`, r)
		default:
			sb.WriteString(s[i : i+n])
		}
		i += n
	}
	return sb.String()
}

// formulaLike reports whether a spreadsheet could read s as a formula.
func formulaLike(s string) bool {
	s = strings.TrimLeft(s, " ")
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	switch r {
	case '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20':
		return true
	}
	return false
}

// escapedRune reports whether SafeCell writes the non-ASCII rune r as \uHHHH.
func escapedRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9F: // C1 controls
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069): // bidi
		return true
	case r == 0xFEFF:
		return true
	}
	return false
}

func writeHexByte(sb *strings.Builder, b byte) {
	const hex = "0123456789ABCDEF"
	sb.WriteString(`\x`)
	sb.WriteByte(hex[b>>4])
	sb.WriteByte(hex[b&0xF])
}

//go:build duckdb_arrow

package audit

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestStoreInsertKeepsColumns guards against the driver defect described on
// Store: every column of a batch must land in the column of the same name,
// with its value, its nulls and its dictionary decoded. Every column gets a
// value that no other column has, so a shifted or swapped column fails.
func TestStoreInsertKeepsColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	s, err := OpenStore(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	b := array.NewRecordBuilder(mem, RequestsSchema)
	defer b.Release()
	const n = 3000 // more than one DuckDB vector (2048 rows)
	for i := 0; i < n; i++ {
		appendTestRow(b, i)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	for range 2 { // twice: views are registered and dropped per batch
		if err := s.Insert(ctx, "requests", rec); err != nil {
			t.Fatal(err)
		}
	}

	rows, err := s.Query(ctx, `SELECT epoch_us(ts), host, client_ip, method, target, status, bytes, user_agent, bot,
		file, line, robots_version, robots_group, verdict, rule, rule_line, crawl_delay, rate_requests,
		rate_seconds, visit_window, visit_breach, robots_fetch FROM requests ORDER BY line, rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var r testRow
		if err := rows.Scan(&r.ts, &r.host, &r.ip, &r.method, &r.target, &r.status, &r.bytes, &r.ua, &r.bot,
			&r.file, &r.line, &r.version, &r.group, &r.verdict, &r.rule, &r.ruleLine, &r.delay, &r.rateN,
			&r.rateS, &r.visit, &r.visitBreach, &r.robotsFetch); err != nil {
			t.Fatal(err)
		}
		i := got / 2
		if want := expectRow(i); fmt.Sprint(r) != fmt.Sprint(want) {
			t.Fatalf("row %d:\n got %v\nwant %v", got, r, want)
		}
		got++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got != 2*n {
		t.Fatalf("got %d rows, want %d", got, 2*n)
	}
}

type testRow struct {
	ts                       int64
	host, ip, method, target sql.NullString
	status                   sql.NullInt32
	bytes                    sql.NullInt64
	ua                       sql.NullString
	bot, file                string
	line                     int64
	version, group           sql.NullString
	verdict                  string
	rule                     sql.NullString
	ruleLine                 sql.NullInt32
	delay                    sql.NullFloat64
	rateN, rateS             sql.NullInt32
	visit                    sql.NullString
	visitBreach, robotsFetch bool
}

func str(s string, valid bool) sql.NullString {
	if !valid {
		return sql.NullString{}
	}
	return sql.NullString{String: s, Valid: true}
}

func i32(v int, valid bool) sql.NullInt32 {
	if !valid {
		return sql.NullInt32{}
	}
	return sql.NullInt32{Int32: int32(v), Valid: true}
}

func expectRow(i int) testRow {
	odd := i%2 == 1
	return testRow{
		ts:          1_790_000_000_000_000 + int64(i)*1_000_001,
		host:        str(fmt.Sprintf("host%d.example", i%3), true),
		ip:          str(fmt.Sprintf("10.0.%d.%d", i/256, i%256), true),
		method:      str([]string{"GET", "HEAD"}[i%2], true),
		target:      str(fmt.Sprintf("/path/%d?q=%d", i, i), true),
		status:      i32(200+i%5, !odd),
		bytes:       sql.NullInt64{Int64: int64(10000 + i), Valid: true},
		ua:          str(fmt.Sprintf("Bot%d/1.0", i%7), true),
		bot:         fmt.Sprintf("Bot%d", i%7),
		file:        fmt.Sprintf("access-%d.log", i%2),
		line:        int64(i + 1),
		version:     str("2026-10-01T00:00:00Z", !odd),
		group:       str([]string{"*", "bot3"}[i%2], !odd),
		verdict:     []string{"allowed", "disallowed", "disallowed_in_grace", "unaudited"}[i%4],
		rule:        str("Disallow: /path/", odd),
		ruleLine:    i32(40+i%9, odd),
		delay:       sql.NullFloat64{Float64: 0.5 + float64(i%4), Valid: true},
		rateN:       i32(1+i%10, !odd),
		rateS:       i32(60+i%10, !odd),
		visit:       str("0100-0600", odd),
		visitBreach: i%3 == 0,
		robotsFetch: i%5 == 0,
	}
}

func appendTestRow(b *array.RecordBuilder, i int) {
	r := expectRow(i)
	appendStr := func(col int, s sql.NullString) {
		switch fb := b.Field(col).(type) {
		case *array.BinaryDictionaryBuilder:
			if !s.Valid {
				fb.AppendNull()
				return
			}
			if err := fb.AppendString(s.String); err != nil {
				panic(err)
			}
		case *array.StringBuilder:
			if !s.Valid {
				fb.AppendNull()
				return
			}
			fb.Append(s.String)
		default:
			panic(fmt.Sprintf("column %d: %T", col, fb))
		}
	}
	b.Field(rcTS).(*array.TimestampBuilder).Append(arrow.Timestamp(r.ts))
	appendStr(rcHost, r.host)
	appendStr(rcClientIP, r.ip)
	appendStr(rcMethod, r.method)
	appendStr(rcTarget, r.target)
	b.Field(rcStatus).(*array.Int32Builder).AppendValues([]int32{r.status.Int32}, []bool{r.status.Valid})
	b.Field(rcBytes).(*array.Int64Builder).AppendValues([]int64{r.bytes.Int64}, []bool{r.bytes.Valid})
	appendStr(rcUserAgent, r.ua)
	appendStr(rcBot, str(r.bot, true))
	appendStr(rcFile, str(r.file, true))
	b.Field(rcLine).(*array.Int64Builder).Append(r.line)
	appendStr(rcRobotsVersion, r.version)
	appendStr(rcRobotsGroup, r.group)
	appendStr(rcVerdict, str(r.verdict, true))
	appendStr(rcRule, r.rule)
	b.Field(rcRuleLine).(*array.Int32Builder).AppendValues([]int32{r.ruleLine.Int32}, []bool{r.ruleLine.Valid})
	b.Field(rcCrawlDelay).(*array.Float64Builder).AppendValues([]float64{r.delay.Float64}, []bool{r.delay.Valid})
	b.Field(rcRateRequests).(*array.Int32Builder).AppendValues([]int32{r.rateN.Int32}, []bool{r.rateN.Valid})
	b.Field(rcRateSeconds).(*array.Int32Builder).AppendValues([]int32{r.rateS.Int32}, []bool{r.rateS.Valid})
	appendStr(rcVisitWindow, r.visit)
	b.Field(rcVisitBreach).(*array.BooleanBuilder).Append(r.visitBreach)
	b.Field(rcRobotsFetch).(*array.BooleanBuilder).Append(r.robotsFetch)
}

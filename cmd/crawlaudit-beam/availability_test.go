package main

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/queries"
)

// availBot is a bot of the availability tests, as the table bots holds it.
type availBot struct {
	name, operator string
	userTriggered  bool
}

var availBots = []availBot{
	{"Googlebot", "Google", false},
	{"Googlebot-Image", "Google", false},
	{"bingbot", "Microsoft", false},
	{"ChatGPT-User", "OpenAI", true},
	{"curl", "", false}, // no operator: its own
	{"YandexBot", "Yandex", false},
}

// availRow is one request of the availability tests.
type availRow struct {
	ts         int64 // Unix µs
	host       string
	bot        availBot
	identity   uint8
	file, line int64
	fetch      bool
	status     int32 // 0: NULL
	verdict    string
}

// randomAvailRows returns requests over 70 days on two hosts, with
// /robots.txt responses of every kind (each at its own second per host
// and operator, so that no two periods of one begin together).
func randomAvailRows(seed uint64) []availRow {
	rng := rand.New(rand.NewPCG(seed, 12))
	t0 := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	statuses := []int32{200, 200, 200, 503, 429, 404, 410, 301, 0, 500}
	verdicts := []string{audit.VerdictAllowed, audit.VerdictAllowed, audit.VerdictDisallowed, audit.VerdictInGrace, audit.VerdictUnaudited}
	var rows []availRow
	lines := map[int64]int64{}
	used := map[string]bool{}
	// YandexBot fetches rarely: periods that last their 30 days, or past
	// the end.
	yandex := availBots[len(availBots)-1]
	day := 24 * 3600 * sec
	for _, f := range []struct {
		host   string
		at     int64
		status int32
	}{
		{"a.example", 2, 503}, {"a.example", 40, 200}, {"a.example", 50, 503},
		{"b.example", 5, 429}, {"b.example", 45, 404}, {"b.example", 47, 500},
	} {
		lines[9]++
		rows = append(rows, availRow{ts: t0 + f.at*day, host: f.host, bot: yandex, file: 9, line: lines[9], fetch: true, status: f.status, verdict: audit.VerdictAllowed})
	}
	for range 3000 {
		r := availRow{host: []string{"a.example", "b.example"}[rng.IntN(2)], bot: availBots[rng.IntN(len(availBots))],
			identity: uint8(rng.IntN(3)), file: int64(rng.IntN(3))}
		r.ts = t0 + int64(rng.IntN(70*24*3600))*sec
		if rng.IntN(8) == 0 && r.bot != yandex {
			r.fetch = true
			r.status = statuses[rng.IntN(len(statuses))]
			slot := fmt.Sprint(r.host, availOperator(r.bot.name, r.bot.operator), r.ts)
			if used[slot] {
				continue
			}
			used[slot] = true
			r.verdict = audit.VerdictAllowed
		} else {
			r.status = 200
			r.verdict = verdicts[rng.IntN(len(verdicts))]
			if r.bot.userTriggered && r.verdict == audit.VerdictDisallowed {
				r.verdict = audit.VerdictUserTriggered
			}
		}
		lines[r.file]++
		r.line = lines[r.file]
		rows = append(rows, r)
	}
	return rows
}

// sqlAvailability runs queries/availability.sql on rows and returns its
// periods (as periodKey strings with their counts) and the new verdict of
// each changed row.
func sqlAvailability(t *testing.T, rows []availRow, google bool) (map[string]periodCount, map[int]string) {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // settings, variables and temporary tables are the connection's
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%.500s", err, q)
		}
	}
	exec("SET TimeZone = 'UTC'")
	exec(fmt.Sprintf("SET VARIABLE spec_google = %t", google))
	exec(`CREATE TABLE dict (id INTEGER, value VARCHAR)`)
	exec(`CREATE TABLE bots (bot VARCHAR, operator VARCHAR, purpose VARCHAR, user_triggered BOOLEAN, bot_id INTEGER)`)
	exec(`CREATE TABLE availability (rid BIGINT, verdict_id INTEGER, unreachable BOOLEAN)`)
	exec(`CREATE TABLE requests (rid BIGINT, ts TIMESTAMPTZ, host_id INTEGER, bot_id INTEGER, file_id INTEGER, line BIGINT,
		status INTEGER, robots_fetch BOOLEAN, identity_code UTINYINT, verdict_id INTEGER)`)
	ids := map[string]int{}
	var names []string
	id := func(s string) int {
		if _, ok := ids[s]; !ok {
			ids[s] = len(ids)
			names = append(names, s)
		}
		return ids[s]
	}
	for _, v := range []string{audit.VerdictAllowed, audit.VerdictDisallowed, audit.VerdictInGrace, audit.VerdictUnaudited,
		audit.VerdictUserTriggered, audit.VerdictUnreachable, audit.VerdictUnavailable} {
		id(v)
	}
	var b strings.Builder
	b.WriteString("INSERT INTO bots (bot, operator, purpose, user_triggered, bot_id) VALUES ")
	for i, bt := range availBots {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "('%s', '%s', '', %t, %d)", bt.name, bt.operator, bt.userTriggered, id(bt.name))
	}
	exec(b.String())
	for i := 0; i < len(rows); i += 500 {
		b.Reset()
		b.WriteString("INSERT INTO requests VALUES ")
		for j, r := range rows[i:min(i+500, len(rows))] {
			if j > 0 {
				b.WriteString(", ")
			}
			status := "NULL"
			if r.status != 0 {
				status = fmt.Sprint(r.status)
			}
			fmt.Fprintf(&b, "(%d, make_timestamp(%d::BIGINT)::TIMESTAMPTZ, %d, %d, %d, %d, %s, %t, %d, %d)",
				i+j, r.ts, id(r.host), id(r.bot.name), r.file, r.line, status, r.fetch, r.identity, id(r.verdict))
		}
		exec(b.String())
	}
	b.Reset()
	b.WriteString("INSERT INTO dict VALUES ")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, '%s')", i, n)
	}
	exec(b.String())
	exec(queries.SQL("bot_ops.sql"))
	exec(queries.SQL("availability.sql"))

	periods := map[string]periodCount{}
	q, err := db.QueryContext(ctx, `
		SELECT p.period_id, p.host_id, p.operator, p.kind, epoch_us(p.from_ts), epoch_us(p.to_ts), p.status, p.bot_id, p.file_id, p.line,
			(SELECT count(*) FROM during d WHERE d.period_id = p.period_id),
			(SELECT count(verdict_id) FROM during d WHERE d.period_id = p.period_id)
		FROM robots_status p`)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for q.Next() {
		var pid, host, bot, file int
		var op, kind string
		var from int64
		var to sql.NullInt64
		var status int32
		var line, n, affected int64
		if err := q.Scan(&pid, &host, &op, &kind, &from, &to, &status, &bot, &file, &line, &n, &affected); err != nil {
			t.Fatal(err)
		}
		p := period{availKey: availKey{Host: names[host], Operator: op}, Kind: kind, From: from, To: to.Int64, HasTo: to.Valid,
			Status: status, Bot: names[bot], File: fmt.Sprint(file), Line: line}
		periods[periodString(&p)] = periodCount{ID: p.id(), Requests: n, Affected: affected}
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
	changed := map[int]string{}
	q2, err := db.QueryContext(ctx, `SELECT a.rid, d.value FROM availability a JOIN dict d ON d.id = a.verdict_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer q2.Close()
	for q2.Next() {
		var rid int
		var v string
		if err := q2.Scan(&rid, &v); err != nil {
			t.Fatal(err)
		}
		changed[rid] = v
	}
	return periods, changed
}

// periodString is everything of a period, for comparisons.
func periodString(p *period) string {
	return fmt.Sprintf("%s|%s|%s|%d|%d|%t|%d|%s|%s|%d", p.Host, p.Operator, p.Kind, p.From, p.To, p.HasTo, p.Status, p.Bot, p.File, p.Line)
}

// goAvailability is sqlAvailability with periodsOf and applyAvailability.
func goAvailability(rows []availRow, google bool) (map[string]periodCount, map[int]string) {
	var maxTS int64
	events := map[availKey][]fetchEvent{}
	for _, r := range rows {
		maxTS = max(maxTS, r.ts)
		if r.fetch && r.identity != 2 && !r.bot.userTriggered && measure.StateOf(r.status, r.status != 0) != measure.StateNone {
			k := availKey{Host: r.host, Operator: availOperator(r.bot.name, r.bot.operator)}
			events[k] = append(events[k], fetchEvent{TS: r.ts, Order: r.file, Line: r.line, Status: r.status, Bot: r.bot.name, File: fmt.Sprint(r.file)})
		}
	}
	var periods []period
	for k, ev := range events {
		periods = append(periods, periodsOf(k, ev, maxTS)...)
	}
	counts := map[string]periodCount{}
	changed := map[int]string{}
	keys := map[botKey][]int{}
	for i, r := range rows {
		k := botKey{Bot: r.bot.name, Host: r.host, Identity: r.identity}
		keys[k] = append(keys[k], i)
	}
	for k, at := range keys {
		kr := &keyRows{}
		for _, i := range at {
			r := rows[i]
			kr.ts = append(kr.ts, r.ts)
			kr.robotsFetch = append(kr.robotsFetch, r.fetch)
			kr.userTriggered = append(kr.userTriggered, r.bot.userTriggered)
			kr.operator = append(kr.operator, r.bot.operator)
			kr.verdict = append(kr.verdict, r.verdict)
		}
		for _, c := range applyAvailability(k, kr, periods, google) {
			s := counts[c.ID]
			s.ID, s.Requests, s.Affected = c.ID, s.Requests+c.Requests, s.Affected+c.Affected
			counts[c.ID] = s
		}
		for j, i := range at {
			if kr.verdict[j] != rows[i].verdict {
				changed[i] = kr.verdict[j]
			}
		}
	}
	out := map[string]periodCount{}
	for i := range periods {
		c := counts[periods[i].id()]
		c.ID = periods[i].id()
		out[periodString(&periods[i])] = c
	}
	return out, changed
}

// TestAvailabilityRandom holds periodsOf and applyAvailability to
// queries/availability.sql on random requests and responses: periods,
// their counts, and every verdict they change.
func TestAvailabilityRandom(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, google := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed %d google %t", seed, google), func(t *testing.T) {
				rows := randomAvailRows(seed)
				wantP, wantV := sqlAvailability(t, rows, google)
				gotP, gotV := goAvailability(rows, google)
				if len(wantP) == 0 || len(wantV) == 0 {
					t.Fatalf("%d periods, %d verdicts changed: the case tests nothing", len(wantP), len(wantV))
				}
				for _, k := range slices.Sorted(maps.Keys(wantP)) {
					if gotP[k] != wantP[k] {
						t.Errorf("period %s: Go %+v, SQL %+v", k, gotP[k], wantP[k])
					}
				}
				for k := range gotP {
					if _, ok := wantP[k]; !ok {
						t.Errorf("period %s in Go only", k)
					}
				}
				bad := 0
				for i, r := range rows {
					if gotV[i] != wantV[i] {
						t.Errorf("row %d %+v: Go %q, SQL %q", i, r, gotV[i], wantV[i])
						if bad++; bad > 10 {
							t.FailNow()
						}
					}
				}
			})
		}
	}
}

package page

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"path"
	"strings"
	"sync"
	"text/template/parse"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

//go:embed page.html.tmpl
var pageTemplate string

//go:embed style.css
var styleCSS string

//go:embed script.js
var scriptJS string

// CSP is the Content-Security-Policy of the page: nothing may be fetched,
// no form sent, no base set; the inline style and script run by hash.
var CSP = "default-src 'none'; style-src " + hash(styleCSS) + "; script-src " + hash(scriptJS) +
	"; img-src 'none'; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'"

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// tmpl is the page's template, parsed when the first page is written: most
// runs write none, and parsing it is most of this package's start-up.
var tmpl = sync.OnceValue(func() *template.Template {
	return neutralised(template.Must(template.New("page").Funcs(funcs).Parse(pageTemplate)))
})

// funcs are the functions the page's template calls.
var funcs = template.FuncMap{
	"neutral":          neutral,
	"num":              num,
	"hours":            report.Hours,
	"signedShares":     report.SignedShares,
	"signatureMeaning": report.SignatureMeaning,
	"reactions": func(s *report.Summary) any {
		rows, total := report.Reactions(s)
		if len(rows) == 0 {
			return nil
		}
		return struct {
			Rows  []report.Change
			Total int
		}{rows, total}
	},
	"date": func(t time.Time) string { return fmtTime(t, "2006-01-02") },
	// slot is a row of the numbers behind the charts: a day, or an hour
	// when the period is one day.
	"slot": func(unit string, t time.Time) string {
		if unit == "hour" {
			return fmtTime(t, "2006-01-02 15:04")
		}
		return fmtTime(t, "2006-01-02")
	},
	"datetime": func(t time.Time) string { return fmtTime(t, "2006-01-02 15:04 UTC") },
	"seconds":  func(t time.Time) string { return fmtTime(t, "2006-01-02 15:04:05") },
	"span":     report.Span,
	"rfc3339":  func(t time.Time) string { return fmtTime(t, time.RFC3339) },
	"base":     func(s string) string { return path.Base(strings.ReplaceAll(s, "\\", "/")) },
	"verdictClass": func(v string) string {
		switch v {
		case report.VerdictIgnoresRobots, report.VerdictSpoofed:
			return "bad"
		case report.VerdictBreaches:
			return "warn"
		case report.VerdictGrace:
			return "stale"
		case report.VerdictOK:
			return "good"
		}
		return "none"
	},
	"cell":  func(c report.Column, r *report.BotRow) any { return c.Value(r) },
	"spark": func(r *report.BotFindings, unit string) *spark { return sparkline(r, unit) },
	"diffClass": func(op byte) string {
		switch op {
		case '+':
			return "add"
		case '-':
			return "del"
		case '~':
			return "gap"
		}
		return "ctx"
	},
	"diffOp":    func(op byte) string { return string(op) },
	"lineNum":   func(n int) string { return lineNum(n) },
	"minus":     func(a, b int) int { return a - b },
	"plural":    plural,
	"hostOf":    hostName,
	"join":      strings.Join,
	"add":       func(a, b int) int { return a + b },
	"cut":       func(s string) string { return report.Cut(s, report.DefaultLimits.Chars) },
	"minus64":   func(a int64, b int) int64 { return a - int64(b) },
	"minusf":    func(a float64, b float64) string { return f1(a - b) },
	"addf":      func(a float64, b float64) string { return f1(a + b) },
	"gracetext": report.GraceText,
	// The referrals section.
	"ratio":         report.RatioText,
	"noRefererNote": func() string { return report.NoRefererNote },
	"bytes":         report.HumanBytes,
	"share":         report.Share,
	"interval":      report.Interval,
	"yesno":         report.YesNo,
	"yesnoUnknown":  report.YesNoUnknown,
	"conductRows": func(s *report.Summary, n int) []report.BotRow {
		return report.ConductRows(s, n)
	},
}

// neutral returns a string as report.Printable shows it, other values as
// they are (numbers, times, and the trusted style and script, whose types
// html/template must still see).
func neutral(v any) any {
	if s, ok := v.(string); ok {
		return report.Printable(s, 0)
	}
	return v
}

// neutralised ends the pipeline of every action that prints a value with
// neutral, before html/template adds its escaping: html/template leaves
// control and bidirectional characters as they are, and a U+202E in a
// User-Agent would show the text after it reversed. Done on the parse
// tree, no string reaches the page without it, whichever field it comes
// from.
func neutralised(t *template.Template) *template.Template {
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			// An action that sets a variable prints nothing.
			if len(n.Pipe.Decl) == 0 {
				n.Pipe.Cmds = append(n.Pipe.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: n.Pos,
					Args: []parse.Node{parse.NewIdentifier("neutral").SetPos(n.Pos)}})
			}
		case *parse.IfNode:
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.List)
			walk(n.ElseList)
		}
	}
	for _, d := range t.Templates() {
		if d.Tree != nil {
			walk(d.Tree.Root)
		}
	}
	return t
}

func lineNum(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

func fmtTime(t time.Time, layout string) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(layout)
}

func num(v any) string {
	switch x := v.(type) {
	case int64:
		return report.Thousands(x)
	case int:
		return report.Thousands(int64(x))
	}
	return fmt.Sprint(v)
}

func plural(n any, one, many string) string {
	var k int64
	switch x := n.(type) {
	case int:
		k = int64(x)
	case int64:
		k = x
	}
	if k == 1 {
		return "1 " + one
	}
	return report.Thousands(k) + " " + many
}

// view is what the template reads.
type view struct {
	*report.Findings
	CSP      string
	CSS      template.CSS
	JS       template.JS
	Sections []report.Section
	Columns  []report.Column
	Title    string
	Period   string
	Hosts    []string
	Verdicts []verdictCount
	// Charts, of days or, over a long period, weeks (Unit).
	ChartDays                  []time.Time
	ChartTimeline, ChartPerDay []report.Series
	Unit                       string
	TimelineChart, PerDayChart *chart
	// ChartBytes are the bytes per slot of all bots, then of the timeline's
	// bot rows; BytesChart draws the latter.
	ChartBytes        []report.Series
	BytesChart        *chart
	PerDayClasses     []string
	HasFindingsPerDay bool
	// VersionOf numbers the versions by name, for the rules table.
	VersionOf map[string]int
	// ManyHosts: the bot rows are of several hosts (else of OnlyHost),
	// so the table has a host column.
	ManyHosts bool
	OnlyHost  string
	// Outages are the times robots.txt answered crawlers with errors.
	Outages []report.Outage
	// Hidden are the optional columns left out: 0 on every row.
	Hidden    []string
	OneSecond bool
}

type verdictCount struct {
	Verdict, Class string
	Rows           int
}

// Write writes the report of f as one HTML document.
func Write(w io.Writer, f *report.Findings) error {
	v := &view{Findings: f, CSP: CSP, CSS: template.CSS(styleCSS), JS: template.JS(scriptJS),
		Sections: report.Sections, VersionOf: map[string]int{}}
	for _, c := range report.BotColumns {
		if c.Optional && allZero(c, f.Rows) {
			if !c.Silent {
				v.Hidden = append(v.Hidden, c.Head)
			}
			continue
		}
		v.Columns = append(v.Columns, c)
	}
	for i, r := range f.Rows {
		if i == 0 {
			v.OnlyHost = r.Host
		} else if r.Host != v.OnlyHost {
			v.ManyHosts = true
		}
	}
	s := f.Summary
	seen := map[string]bool{}
	for _, r := range s.Robots {
		if !seen[r.Host] {
			seen[r.Host] = true
			v.Hosts = append(v.Hosts, hostName(r.Host))
		}
	}
	v.Title = "Crawler compliance report"
	if len(v.Hosts) == 1 && v.Hosts[0] != "every host" {
		v.Title += " — " + v.Hosts[0]
	}
	if in := s.Input; in.From != nil && in.To != nil {
		v.Period = in.From.UTC().Format("2006-01-02 15:04") + " to " + in.To.UTC().Format("2006-01-02 15:04 UTC")
	}
	counts := map[string]int{}
	for _, r := range s.Bots {
		counts[r.Verdict]++
	}
	for _, vd := range []string{report.VerdictIgnoresRobots, report.VerdictSpoofed, report.VerdictBreaches, report.VerdictGrace, report.VerdictOK, report.VerdictUnaudited} {
		v.Verdicts = append(v.Verdicts, verdictCount{Verdict: vd, Rows: counts[vd]})
	}
	v.ChartDays, v.ChartTimeline, v.ChartPerDay, v.Unit = f.Days, f.Timeline, f.PerDay, "day"
	v.ChartBytes = append([]report.Series{f.BytesPerDay}, f.TimelineBytes...)
	for i := range v.ChartBytes {
		if len(v.ChartBytes[i].Values) != len(f.Days) {
			// Findings made without the bytes: a row of zeros.
			v.ChartBytes[i].Values = make([]int64, len(f.Days))
		}
	}
	slot := 24 * time.Hour
	if f.Slot == time.Hour {
		v.Unit, slot = "hour", time.Hour
	} else if len(f.Days) > maxChartDays {
		v.ChartDays, v.ChartTimeline = weekly(f.Days, f.Timeline)
		_, v.ChartPerDay = weekly(f.Days, f.PerDay)
		_, v.ChartBytes = weekly(f.Days, v.ChartBytes)
		v.Unit, slot = "week", 7*24*time.Hour
	}
	v.Outages = report.Outages(s)
	if len(f.Days) > 0 {
		v.TimelineChart = lineChart("Requests per "+v.Unit+" of the bots with most requests", v.ChartDays, slot, v.ChartTimeline, f.Versions, v.Outages)
		if len(v.ChartBytes) > 1 {
			v.BytesChart = lineChart("Response bytes per "+v.Unit+" of the bots with most requests", v.ChartDays, slot, v.ChartBytes[1:], f.Versions, v.Outages)
		}
		v.PerDayClasses = []string{"k-dis", "k-grace", "k-delay", "k-rate", "k-visit"}
		v.PerDayChart = stackedChart("Disallowed requests and breaches per "+v.Unit, v.ChartDays, slot, v.ChartPerDay, v.PerDayClasses, f.Versions, v.Outages)
		for _, s := range f.PerDay {
			if s.Total > 0 {
				v.HasFindingsPerDay = true
			}
		}
	}
	for _, rv := range f.Versions {
		v.VersionOf[rv.Name] = rv.Number
	}
	v.OneSecond = s.Audit.TimeResolution == "1s"
	return tmpl().Execute(w, v)
}

// allZero reports whether column c is 0 on every row.
func allZero(c report.Column, rows []report.BotFindings) bool {
	for i := range rows {
		if n, ok := c.Value(&rows[i].BotRow).(int64); !ok || n != 0 {
			return false
		}
	}
	return true
}

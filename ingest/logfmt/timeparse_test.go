package logfmt

import (
	"math/rand"
	"testing"
	"time"
)

func us(t time.Time) int64 { return t.UnixMicro() }

func TestParseCLFTime(t *testing.T) {
	tests := []struct {
		in   string
		want string // RFC 3339 with fraction, or "" for a rejection
	}{
		{"10/Oct/2000:13:55:36 -0700", "2000-10-10T20:55:36Z"},
		{"25/Oct/2026:02:59:59 +0200", "2026-10-25T00:59:59Z"}, // before the DST change in Berlin
		{"25/Oct/2026:02:00:00 +0100", "2026-10-25T01:00:00Z"}, // after it
		{"01/jan/2026:00:00:00 +0000", "2026-01-01T00:00:00Z"},
		{"29/Feb/2024:12:00:00 +0530", "2024-02-29T06:30:00Z"},
		{"10/Oct/2000:13:55:36.123 -0700", "2000-10-10T20:55:36.123Z"},
		{"10/Oct/2000:13:55:36", "2000-10-10T13:55:36Z"},
		{"10/Oct/2000:23:59:60 +0000", "2000-10-10T23:59:59Z"},
		{"29/Feb/2023:12:00:00 +0000", ""},
		{"31/Apr/2026:12:00:00 +0000", ""},
		{"10/Foo/2000:13:55:36 -0700", ""},
		{"10/Oct/2000:24:55:36 -0700", ""},
		{"10/Oct/2000:13:55:36 -07", ""}, // CLF offsets have four digits; "-07" is ISO only
		{"10/Oct/2000:13:55:36 X0700", ""},
		{"10/Oct/2000:13:55:36 -0700 junk", ""},
		{"", ""},
		{"10/Oct/2000", ""},
	}
	for _, tt := range tests {
		got, ok := ParseCLFTime([]byte(tt.in))
		check(t, "ParseCLFTime", tt.in, got, ok, tt.want)
	}
}

func check(t *testing.T, fn, in string, got int64, ok bool, want string) {
	t.Helper()
	if want == "" {
		if ok {
			t.Errorf("%s(%q) = %v, want rejection", fn, in, time.UnixMicro(got).UTC())
		}
		return
	}
	w, err := time.Parse(time.RFC3339Nano, want)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || got != us(w) {
		t.Errorf("%s(%q) = %v, %v; want %v", fn, in, time.UnixMicro(got).UTC(), ok, w)
	}
}

func TestParseISO8601(t *testing.T) {
	tests := []struct{ in, want string }{
		{"2026-10-25T01:30:00+02:00", "2026-10-24T23:30:00Z"},
		{"2026-10-25T01:30:00Z", "2026-10-25T01:30:00Z"},
		{"2026-10-25T01:30:00.123456+0200", "2026-10-24T23:30:00.123456Z"},
		{"2026-10-25T01:30:00.123456789Z", "2026-10-25T01:30:00.123456Z"},
		{"2026-10-25 01:30:00", "2026-10-25T01:30:00Z"},
		{"2026-10-25 01:30:00 +0100", "2026-10-25T00:30:00Z"},
		{"2026-10-25T01:30:00-05", "2026-10-25T06:30:00Z"},
		{"2026-10-25T01:30:00.Z", ""},
		{"2026-13-25T01:30:00Z", ""},
		{"2026-10-25X01:30:00Z", ""},
		{"2026-10-25T01:30:00+02:", ""},
		{"2026-10-25T01:30:00+25:00", ""},
		{"2026-10-25", ""},
	}
	for _, tt := range tests {
		got, ok := ParseISO8601([]byte(tt.in))
		check(t, "ParseISO8601", tt.in, got, ok, tt.want)
	}
}

func TestParseEpoch(t *testing.T) {
	tests := []struct {
		in   string
		unit int64
		want string
	}{
		{"1700000000", EpochSeconds, "2023-11-14T22:13:20Z"},
		{"1700000000.5", EpochSeconds, "2023-11-14T22:13:20.5Z"},
		{"1700000000.123456", EpochSeconds, "2023-11-14T22:13:20.123456Z"},
		{"1700000000123", EpochMillis, "2023-11-14T22:13:20.123Z"},
		{"1700000000123.5", EpochMillis, "2023-11-14T22:13:20.1235Z"},
		{"1700000000123456", EpochMicros, "2023-11-14T22:13:20.123456Z"},
		{"1700000000123456789", EpochNanos, "2023-11-14T22:13:20.123456Z"},
		{"-1", EpochSeconds, ""},
		{"17e8", EpochSeconds, ""},
		{"1.", EpochSeconds, ""},
		{"99999999999999999999999", EpochSeconds, ""},
		{"", EpochSeconds, ""},
	}
	for _, tt := range tests {
		got, ok := ParseEpoch([]byte(tt.in), tt.unit)
		check(t, "ParseEpoch", tt.in, got, ok, tt.want)
	}
}

func TestParseDateTime(t *testing.T) {
	tests := []struct{ date, clock, want string }{
		{"2026-10-25", "01:30:00", "2026-10-25T01:30:00Z"},
		{"2026-10-25", "01:30:00.250", "2026-10-25T01:30:00.25Z"},
		{"2026-10-25", "01:30", ""},
		{"2026-02-30", "01:30:00", ""},
		{"2026-10-25", "01:30:00x", ""},
	}
	for _, tt := range tests {
		got, ok := ParseDateTime([]byte(tt.date), []byte(tt.clock))
		check(t, "ParseDateTime", tt.date+" "+tt.clock, got, ok, tt.want)
	}
}

// TestCivilAgainstTime compares the calendar arithmetic with package time
// over random instants from 1900 to 2200, through every layout.
func TestCivilAgainstTime(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	lo := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for i := 0; i < 20000; i++ {
		sec := lo + r.Int63n(hi-lo)
		off := (r.Intn(28*4) - 14*4) * 15 * 60
		tm := time.Unix(sec, 0).In(time.FixedZone("", off))
		want := sec * 1_000_000
		for _, c := range []struct {
			fn     string
			layout string
			parse  func([]byte) (int64, bool)
		}{
			{"CLF", "02/Jan/2006:15:04:05 -0700", ParseCLFTime},
			{"ISO", "2006-01-02T15:04:05-07:00", ParseISO8601},
			{"ISO", "2006-01-02T15:04:05-0700", ParseISO8601},
		} {
			s := tm.Format(c.layout)
			if got, ok := c.parse([]byte(s)); !ok || got != want {
				t.Fatalf("%s(%q) = %d, %v; want %d", c.fn, s, got, ok, want)
			}
		}
		u := tm.UTC()
		if got, ok := ParseDateTime([]byte(u.Format("2006-01-02")), []byte(u.Format("15:04:05"))); !ok || got != want {
			t.Fatalf("ParseDateTime(%v) = %d, %v; want %d", u, got, ok, want)
		}
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"10/Oct/2000:13:55:36 -0700", "2026-10-25T01:30:00.123+02:00", "1700000000.5", "2026-10-25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		ParseCLFTime(b)
		ParseISO8601(b)
		ParseEpoch(b, EpochSeconds)
		ParseEpoch(b, EpochNanos)
		if len(b) > 10 {
			ParseDateTime(b[:10], b[10:])
		}
	})
}

func BenchmarkParseCLFTime(b *testing.B) {
	in := []byte("25/Oct/2026:02:59:59 +0200")
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		ParseCLFTime(in)
	}
}

// TestCLFTimeCache: the cached parser answers as ParseCLFTime for every line
// of a sequence that shares dates and zones, changes them, and mixes in
// invalid clocks, leap seconds, fractions and other lengths after a cached
// date.
func TestCLFTimeCache(t *testing.T) {
	seq := []string{
		"10/Oct/2026:13:55:36 +0200",
		"10/Oct/2026:13:55:37 +0200",
		"10/Oct/2026:23:59:60 +0200", // leap second
		"10/Oct/2026:24:00:00 +0200", // invalid hour after a cached date
		"10/Oct/2026:13:60:00 +0200",
		"10/Oct/2026:13:5x:00 +0200",
		"10/Oct/2026:13-55:36 +0200",
		"10/Oct/2026:13:55:36 +0100", // zone changes (DST)
		"10/Oct/2026:13:55:36 +0100",
		"10/Oct/2026:13:55:36.250 +0100", // a fraction: never cached
		"10/Oct/2026:13:55:37 +0100",
		"10/Oct/2026:13:55:36", // no zone
		"10/Oct/2026:13:55:38",
		"10/Oct/2026:13:55:38 +01000", // too long
		"11/Oct/2026:00:00:00 +0100",  // date changes
		"31/Feb/2026:00:00:00 +0100",  // invalid date
		"31/Feb/2026:00:00:01 +0100",
		"11/oct/2026:00:00:01 +0100", // case of the month
		"11/Oct/2026:00:00:01 -0000",
		"",
	}
	var c clfTimeCache
	for round := 0; round < 2; round++ {
		for _, s := range seq {
			wt, wok := ParseCLFTime([]byte(s))
			gt, gok := c.parse([]byte(s))
			if gt != wt || gok != wok {
				t.Errorf("%q: cached parse = %d, %v; ParseCLFTime = %d, %v", s, gt, gok, wt, wok)
			}
		}
	}
}

// FuzzCLFTimeCache: for any two inputs, parsing the second after the first
// gives ParseCLFTime's answer.
func FuzzCLFTimeCache(f *testing.F) {
	f.Add("10/Oct/2026:13:55:36 +0200", "10/Oct/2026:13:55:37 +0200")
	f.Add("10/Oct/2026:13:55:36 +0200", "10/Oct/2026:99:55:37 +0200")
	f.Add("10/Oct/2026:13:55:36", "10/Oct/2026:13:55:60")
	f.Fuzz(func(t *testing.T, a, b string) {
		var c clfTimeCache
		c.parse([]byte(a))
		wt, wok := ParseCLFTime([]byte(b))
		gt, gok := c.parse([]byte(b))
		if gt != wt || gok != wok {
			t.Errorf("%q after %q: cached parse = %d, %v; ParseCLFTime = %d, %v", b, a, gt, gok, wt, wok)
		}
	})
}

package logfmt

// Time parsing without time.Parse: each function reads the digits of one
// layout directly and converts the civil date to days since the epoch with
// Howard Hinnant's days_from_civil algorithm. All results are microseconds
// since the Unix epoch, UTC. No function allocates.

const (
	usPerSecond = 1_000_000
	usPerMinute = 60 * usPerSecond
	usPerDay    = 86_400 * usPerSecond
)

// daysFromCivil returns the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar. m is 1..12, d is 1..31.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

var daysIn = [13]int64{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// validDate reports whether y-m-d is a real calendar date.
func validDate(y, m, d int64) bool {
	if m < 1 || m > 12 || d < 1 || d > daysIn[m] {
		return false
	}
	if m == 2 && d == 29 {
		return y%4 == 0 && (y%100 != 0 || y%400 == 0)
	}
	return true
}

// digits parses b[i:i+n] as a decimal number; ok is false if any byte is not
// a digit or b is too short.
func digits(b []byte, i, n int) (int64, bool) {
	if i < 0 || i+n > len(b) {
		return 0, false
	}
	var v int64
	for _, c := range b[i : i+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// civil converts a validated date and clock to µs since the epoch.
func civil(y, mo, d, h, mi, s int64) (int64, bool) {
	if !validDate(y, mo, d) || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	if s == 60 { // a leap second is logged as :60; fold it into the next second
		s = 59
	}
	return daysFromCivil(y, mo, d)*usPerDay + ((h*60+mi)*60+s)*usPerSecond, true
}

// dateClock converts a date "2026-10-25" and a clock "01:30:00" (exactly
// 10 and 8 bytes) to µs since the epoch, UTC.
func dateClock(date, clock []byte) (int64, bool) {
	if date[4] != '-' || date[7] != '-' || clock[2] != ':' || clock[5] != ':' {
		return 0, false
	}
	y, ok1 := digits(date, 0, 4)
	mo, ok2 := digits(date, 5, 2)
	d, ok3 := digits(date, 8, 2)
	h, ok4 := digits(clock, 0, 2)
	mi, ok5 := digits(clock, 3, 2)
	s, ok6 := digits(clock, 6, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return 0, false
	}
	return civil(y, mo, d, h, mi, s)
}

// monthFromAbbrev maps "Jan".."Dec" (any case) to 1..12, or 0.
func monthFromAbbrev(b []byte) int64 {
	if len(b) != 3 {
		return 0
	}
	// Pack lower-cased bytes into one key.
	k := uint32(b[0]|0x20)<<16 | uint32(b[1]|0x20)<<8 | uint32(b[2]|0x20)
	switch k {
	case 'j'<<16 | 'a'<<8 | 'n':
		return 1
	case 'f'<<16 | 'e'<<8 | 'b':
		return 2
	case 'm'<<16 | 'a'<<8 | 'r':
		return 3
	case 'a'<<16 | 'p'<<8 | 'r':
		return 4
	case 'm'<<16 | 'a'<<8 | 'y':
		return 5
	case 'j'<<16 | 'u'<<8 | 'n':
		return 6
	case 'j'<<16 | 'u'<<8 | 'l':
		return 7
	case 'a'<<16 | 'u'<<8 | 'g':
		return 8
	case 's'<<16 | 'e'<<8 | 'p':
		return 9
	case 'o'<<16 | 'c'<<8 | 't':
		return 10
	case 'n'<<16 | 'o'<<8 | 'v':
		return 11
	case 'd'<<16 | 'e'<<8 | 'c':
		return 12
	}
	return 0
}

// fraction parses the digits of a fractional second starting at b[i] (just
// after the '.' or ','), returning µs (extra digits beyond microseconds are
// truncated) and the index after the last digit.
func fraction(b []byte, i int) (us int64, next int) {
	scale := int64(100_000)
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if scale > 0 {
			us += int64(b[i]-'0') * scale
			scale /= 10
		}
		i++
	}
	return us, i
}

// offset parses a UTC offset at b[i:]: "Z", "z", "+hh:mm", "+hhmm", "+hh",
// "-..."; it returns the offset in µs east of UTC and the index after it.
// An empty remainder is UTC.
func offset(b []byte, i int) (off int64, next int, ok bool) {
	if i == len(b) {
		return 0, i, true
	}
	switch b[i] {
	case 'Z', 'z':
		return 0, i + 1, true
	case '+', '-':
	default:
		return 0, i, false
	}
	sign := int64(1)
	if b[i] == '-' {
		sign = -1
	}
	h, ok := digits(b, i+1, 2)
	if !ok || h > 23 {
		return 0, i, false
	}
	j := i + 3
	var m int64
	if j < len(b) && b[j] == ':' {
		j++
	}
	if v, ok := digits(b, j, 2); ok {
		m = v
		j += 2
	} else if j != i+3 { // "+hh:" without minutes
		return 0, i, false
	}
	if m > 59 {
		return 0, i, false
	}
	return sign * (h*60 + m) * usPerMinute, j, true
}

// ParseCLFTime parses the Common Log Format time "10/Oct/2000:13:55:36 -0700"
// (without the brackets), optionally with fractional seconds
// ("10/Oct/2000:13:55:36.123 -0700", as HAProxy and some nginx setups write)
// and optionally without the offset (then UTC). It returns µs since the
// epoch, UTC.
func ParseCLFTime(b []byte) (int64, bool) {
	if len(b) < 20 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' {
		return 0, false
	}
	d, ok1 := digits(b, 0, 2)
	mo := monthFromAbbrev(b[3:6])
	y, ok2 := digits(b, 7, 4)
	h, ok3 := digits(b, 12, 2)
	mi, ok4 := digits(b, 15, 2)
	s, ok5 := digits(b, 18, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || mo == 0 {
		return 0, false
	}
	t, ok := civil(y, mo, d, h, mi, s)
	if !ok {
		return 0, false
	}
	i := 20
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		var us int64
		us, i = fraction(b, i+1)
		t += us
	}
	if i == len(b) {
		return t, true
	}
	// CLF offsets are always a sign and four digits: " -0700".
	if len(b)-i != 6 || b[i] != ' ' || b[i+1] != '+' && b[i+1] != '-' {
		return 0, false
	}
	off, next, ok := offset(b, i+1)
	if !ok || next != len(b) {
		return 0, false
	}
	return t - off, true
}

// clfTimeCache parses CLF times remembering the date and the zone of the
// last one: the lines of a log share them for hours, so that only the clock
// "hh:mm:ss" is read per line. The zero value is ready to use. Its answers
// are those of ParseCLFTime.
type clfTimeCache struct {
	date      [12]byte // "10/Oct/2000:"
	zone      [6]byte  // " -0700"
	zoneLen   int      // 0 or 6
	dayUS     int64    // µs of the date's midnight, zone applied
	hasCached bool
}

// parse is ParseCLFTime.
func (c *clfTimeCache) parse(b []byte) (int64, bool) {
	if c.hasCached && len(b) == 20+c.zoneLen && string(b[:12]) == string(c.date[:]) && string(b[20:]) == string(c.zone[:c.zoneLen]) {
		if clock, ok := clfClock(b); ok {
			return c.dayUS + clock, true
		}
	}
	t, ok := ParseCLFTime(b)
	if !ok || len(b) != 20 && len(b) != 26 { // a fraction: parsed whole every time
		return t, ok
	}
	clock, _ := clfClock(b)
	copy(c.date[:], b[:12])
	c.zoneLen = copy(c.zone[:], b[20:])
	c.dayUS, c.hasCached = t-clock, true
	return t, ok
}

// clfClock returns the µs since midnight of the clock of a CLF time, b[12:20]
// ("13:55:36"), validated as civil validates it.
func clfClock(b []byte) (int64, bool) {
	if b[14] != ':' || b[17] != ':' {
		return 0, false
	}
	h, ok1 := digits(b, 12, 2)
	mi, ok2 := digits(b, 15, 2)
	s, ok3 := digits(b, 18, 2)
	if !(ok1 && ok2 && ok3) || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	if s == 60 { // as civil: a leap second folds into the one before
		s = 59
	}
	return ((h*60+mi)*60 + s) * usPerSecond, true
}

// ParseISO8601 parses an ISO 8601 / RFC 3339 date-time:
// "2026-10-25T01:30:00+02:00", "2026-10-25T01:30:00Z",
// "2026-10-25T01:30:00.123456+0200", "2026-10-25 01:30:00" (a space for the
// T). Without an offset the time is taken as UTC. It returns µs since the
// epoch, UTC.
func ParseISO8601(b []byte) (int64, bool) {
	if len(b) < 19 || (b[10] != 'T' && b[10] != 't' && b[10] != ' ') {
		return 0, false
	}
	t, ok := dateClock(b[:10], b[11:19])
	if !ok {
		return 0, false
	}
	i := 19
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		var us int64
		us, i = fraction(b, i+1)
		if i == 20 { // a dot without digits
			return 0, false
		}
		t += us
	}
	if i < len(b) && b[i] == ' ' { // "2026-10-25 01:30:00 +0200"
		i++
	}
	off, next, ok := offset(b, i)
	if !ok || next != len(b) {
		return 0, false
	}
	return t - off, true
}

// Units for ParseEpoch: how many µs one unit of the number is. Nanoseconds
// are a negative divisor.
const (
	EpochSeconds = usPerSecond
	EpochMillis  = 1_000
	EpochMicros  = 1
	EpochNanos   = -1_000
)

// ParseEpoch parses a Unix timestamp "1700000000" or "1700000000.123" in the
// given unit (EpochSeconds, EpochMillis, EpochMicros, EpochNanos) and returns
// µs since the epoch. Negative timestamps and values that overflow are
// rejected.
func ParseEpoch(b []byte, unit int64) (int64, bool) {
	if len(b) == 0 || len(b) > 40 {
		return 0, false
	}
	var whole int64
	i := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if whole > (1<<62)/10 {
			return 0, false
		}
		whole = whole*10 + int64(b[i]-'0')
	}
	if i == 0 {
		return 0, false
	}
	// The fraction, as a value in units of 1e-9 of one unit.
	var frac int64
	if i < len(b) && b[i] == '.' {
		scale := int64(100_000_000)
		i++
		start := i
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			frac += int64(b[i]-'0') * scale
			scale /= 10
		}
		if i == start {
			return 0, false
		}
	}
	if i != len(b) {
		return 0, false
	}
	switch {
	case unit < 0: // nanoseconds: divide
		return whole / -unit, true
	case whole > (1<<62)/unit:
		return 0, false
	default:
		return whole*unit + frac*unit/1_000_000_000, true
	}
}

// ParseDateTime parses a W3C extended log date "2026-10-25" and time
// "01:30:00" or "01:30:00.123" as UTC (W3C logs are in UTC by definition).
func ParseDateTime(date, clock []byte) (int64, bool) {
	if len(date) != 10 || len(clock) < 8 {
		return 0, false
	}
	t, ok := dateClock(date, clock[:8])
	if !ok {
		return 0, false
	}
	if len(clock) > 8 {
		if clock[8] != '.' {
			return 0, false
		}
		us, next := fraction(clock, 9)
		if next != len(clock) || next == 9 {
			return 0, false
		}
		t += us
	}
	return t, true
}

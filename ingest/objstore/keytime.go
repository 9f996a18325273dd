package objstore

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// cloudFrontKey is a CloudFront standard log file name,
// "<distribution ID>.YYYY-MM-DD-HH.<unique ID>.gz", its date and hour in
// UTC (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/AccessLogs.html#AccessLogsFileNaming).
var cloudFrontKey = regexp.MustCompile(`^[A-Za-z0-9]+\.(\d{4})-(\d{2})-(\d{2})-(\d{2})\.[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*$`)

// KeyTime returns the time a log object's key dates it to, and the span
// that time covers, when the key follows a known delivery naming:
//
//   - CloudFront: a last segment "<distribution ID>.YYYY-MM-DD-HH.<unique ID>.gz"
//     names the hour of its requests (one hour);
//   - ALB (and ELB): directories ".../YYYY/MM/DD/..." (one day;
//     https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-access-logs.html);
//   - Cloudflare Logpush: a directory "YYYYMMDD", what {DATE} in a
//     destination path becomes (one day;
//     https://developers.cloudflare.com/logs/reference/logpush-api-configuration/).
//
// The last date in the key wins: prefixes may hold dates of their own.
// ok is false when the key carries no valid date.
func KeyTime(key string) (start time.Time, span time.Duration, ok bool) {
	segs := strings.Split(key, "/")
	if m := cloudFrontKey.FindStringSubmatch(segs[len(segs)-1]); m != nil {
		if t, ok := date(m[1], m[2], m[3]); ok {
			if h, _ := strconv.Atoi(m[4]); h < 24 {
				return t.Add(time.Duration(h) * time.Hour), time.Hour, true
			}
		}
	}
	dirs := segs[:len(segs)-1]
	for i := len(dirs) - 1; i >= 0; i-- {
		if i >= 2 && digits(dirs[i-2], 4) && digits(dirs[i-1], 2) && digits(dirs[i], 2) {
			if t, ok := date(dirs[i-2], dirs[i-1], dirs[i]); ok {
				return t, 24 * time.Hour, true
			}
		}
		if digits(dirs[i], 8) {
			if t, ok := date(dirs[i][:4], dirs[i][4:6], dirs[i][6:]); ok {
				return t, 24 * time.Hour, true
			}
		}
	}
	return time.Time{}, 0, false
}

// digits reports whether s is n ASCII digits.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// date returns the UTC midnight of year y, month m, day d, or false when
// they are no real date (2026/02/30) or the year is implausible for a log
// (a directory of numbers that is no date).
func date(y, m, d string) (time.Time, bool) {
	yy, _ := strconv.Atoi(y)
	mm, _ := strconv.Atoi(m)
	dd, _ := strconv.Atoi(d)
	if yy < 1990 || yy > 2200 {
		return time.Time{}, false
	}
	t := time.Date(yy, time.Month(mm), dd, 0, 0, 0, 0, time.UTC)
	if t.Year() != yy || int(t.Month()) != mm || t.Day() != dd {
		return time.Time{}, false
	}
	return t, true
}

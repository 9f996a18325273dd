package auditflags

import (
	"errors"
	"fmt"
	"net/netip"
	"time"
)

// ParseInstant parses a --from or --to value: RFC 3339, a time without a
// zone (UTC: "2026-10-01T12:00"), or a date ("2026-10-01"): its first
// instant, or with end its last microsecond. "" is the zero time (open).
func ParseInstant(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if end {
			return t.Add(24*time.Hour - time.Microsecond), nil
		}
		return t, nil
	}
	return time.Time{}, fmt.Errorf("cannot parse %q: use RFC 3339 (2026-10-01T00:00:00Z) or a date (2026-10-01)", s)
}

// ParsePrefix parses a --trusted-proxy value: a CIDR, or a bare address as
// its /32 or /128.
func ParsePrefix(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, errors.New("not a CIDR or an address")
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

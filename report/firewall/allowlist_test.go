package firewall

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseAllowList(t *testing.T) {
	in := "\ufeff# our monitoring\n192.0.2.7\n\n  198.51.100.0/24   # office\n2001:db8::/32\n::ffff:203.0.113.0/120\n10.1.2.3/8\n"
	got, err := ParseAllowList(strings.NewReader(in), "allow.txt")
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, p := range got {
		s = append(s, p.String())
	}
	want := []string{"192.0.2.7/32", "198.51.100.0/24", "2001:db8::/32", "203.0.113.0/24", "10.0.0.0/8"}
	if !slices.Equal(s, want) {
		t.Errorf("got %v, want %v", s, want)
	}
	for _, tc := range []struct{ in, msg string }{
		{"192.0.2.7\nexample.com\n", "allow.txt:2: cannot parse \"example.com\""},
		{"192.0.2.0/33\n", "allow.txt:1:"},
		{"# x\n\nfe80::1%eth0\n", "allow.txt:3:"},
		{"192.0.2.1 192.0.2.2\n", "allow.txt:1:"},
		{"192.0.2.1;\n", "allow.txt:1:"},
	} {
		_, err := ParseAllowList(strings.NewReader(tc.in), "allow.txt")
		var ae *AllowListError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.msg)
		}
	}
}

package firewall

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestAWSWAFGolden(t *testing.T) {
	checkGolden(t, "blocklist.aws-waf.json", writeFile(t, "aws-waf", "blocklist.aws-waf.json", fixtureList(t)))
}

// awsIPSetInput is the part of CreateIPSet's request the file fills
// (https://docs.aws.amazon.com/waf/latest/APIReference/API_CreateIPSet.html);
// Tags is left to the operator.
type awsIPSetInput struct {
	Name             string
	Scope            string
	Description      string
	IPAddressVersion string
	Addresses        []string
}

// awsWAFTestFile is the documented shape of blocklist.aws-waf.json.
type awsWAFTestFile struct {
	Comment []string
	IPV4    awsIPSetInput
	IPV6    awsIPSetInput
	Reasons []struct{ Address, Reason string }
}

// The request fields of CreateIPSet and UpdateIPSet, spelled as the API
// reference spells them.
var (
	awsCreateIPSetFields = []string{"Addresses", "Description", "IPAddressVersion", "Name", "Scope", "Tags"}
	awsUpdateIPSetFields = []string{"Addresses", "Description", "Id", "LockToken", "Name", "Scope"}
	// Patterns of the API reference (EntityName, EntityDescription).
	awsNamePattern        = regexp.MustCompile(`^[\w\-]+$`)
	awsDescriptionPattern = regexp.MustCompile(`^[\w+=:#@/\-,\.][\w+=:#@/\-,\.\s]+[\w+=:#@/\-,\.]$`)
)

// awsWAFRead decodes the file strictly: no field outside the documented
// shape, and every field name exactly as AWS spells it (encoding/json
// matches names without regard to case).
func awsWAFRead(t *testing.T, out []byte) awsWAFTestFile {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var f awsWAFTestFile
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("decoding: %v\n%s", err, out)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("data after the JSON object: %v", err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(out, &top); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(top)); !slices.Equal(got, []string{"Comment", "IPV4", "IPV6", "Reasons"}) {
		t.Errorf("top-level keys %q", got)
	}
	for _, fam := range []string{"IPV4", "IPV6"} {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(top[fam], &m); err != nil {
			t.Fatal(err)
		}
		for k := range m {
			if !slices.Contains(awsCreateIPSetFields, k) {
				t.Errorf("%s.%s is not a field of CreateIPSet", fam, k)
			}
			if k != "IPAddressVersion" && !slices.Contains(awsUpdateIPSetFields, k) {
				t.Errorf("%s.%s is not a field of UpdateIPSet", fam, k)
			}
		}
		for _, k := range []string{"Name", "Scope", "IPAddressVersion", "Addresses"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s has no %s, which CreateIPSet requires", fam, k)
			}
		}
	}
	return f
}

// TestAWSWAFReadBack decodes the file and checks each IP set against the
// API's rules and the list: every block once, in CIDR notation, in the
// set of its family, with its reason.
func TestAWSWAFReadBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *List
	}{
		{"fixture", fixtureList(t)},
		{"hostile bot names", hostileList(t)},
		{"empty", &List{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := awsWAFRead(t, writeFile(t, "aws-waf", "blocklist.aws-waf.json", tc.l))
			if !slices.Equal(f.Comment, tc.l.Meta.Lines(tc.l)) {
				t.Errorf("Comment = %q, want the header lines", f.Comment)
			}
			var reasons []string
			for _, fam := range []struct {
				n       int
				set     awsIPSetInput
				version string
			}{{4, f.IPV4, "IPV4"}, {6, f.IPV6, "IPV6"}} {
				set := fam.set
				if set.IPAddressVersion != fam.version || set.Scope != "REGIONAL" {
					t.Errorf("%s: IPAddressVersion %q, Scope %q", fam.version, set.IPAddressVersion, set.Scope)
				}
				if !awsNamePattern.MatchString(set.Name) || len(set.Name) > 128 {
					t.Errorf("%s: Name %q does not match %s", fam.version, set.Name, awsNamePattern)
				}
				if !awsDescriptionPattern.MatchString(set.Description) || len(set.Description) > 256 {
					t.Errorf("%s: Description %q does not match %s", fam.version, set.Description, awsDescriptionPattern)
				}
				if set.Addresses == nil {
					t.Errorf("%s: Addresses is null, want an array", fam.version)
				}
				var want []string
				for _, b := range tc.l.Family(fam.n) {
					want = append(want, b.CIDR())
					reasons = append(reasons, b.CIDR()+" "+b.Reason())
				}
				if !slices.Equal(set.Addresses, want) {
					t.Errorf("%s: Addresses %q, want %q", fam.version, set.Addresses, want)
				}
				for _, a := range set.Addresses {
					p, err := netip.ParsePrefix(a)
					switch {
					case err != nil:
						t.Errorf("%s: %q is not in CIDR notation: %v", fam.version, a, err)
					case p.Addr().Is4() != (fam.n == 4):
						t.Errorf("%s: %q of the other family", fam.version, a)
					case p.Bits() == 0:
						t.Errorf("%s: %q: AWS WAF takes no /0", fam.version, a)
					case len(a) > 50:
						t.Errorf("%s: %q longer than 50 characters", fam.version, a)
					}
				}
			}
			var got []string
			for _, r := range f.Reasons {
				got = append(got, r.Address+" "+r.Reason)
			}
			if !slices.Equal(got, reasons) {
				t.Errorf("Reasons = %q, want %q", got, reasons)
			}
		})
	}
}

// awsWAFManyList is a list of n4 single IPv4 and n6 single IPv6 blocks.
func awsWAFManyList(n4, n6 int) *List {
	var es []Entry
	a := netip.MustParseAddr("10.0.0.1")
	for range n4 {
		es = append(es, Entry{Addr: a})
		a = a.Next().Next()
	}
	a = netip.MustParseAddr("2001:db8::1")
	for range n6 {
		es = append(es, Entry{Addr: a})
		a = a.Next().Next()
	}
	l := &List{Entries: es}
	for i := range es {
		l.Blocks = append(l.Blocks, Block{Prefix: netip.PrefixFrom(es[i].Addr, es[i].Addr.BitLen()), Entries: es[i : i+1 : i+1]})
	}
	return l
}

// TestAWSWAFLimit checks AWS WAF's 10,000 addresses per IP set, for each
// family alone.
func TestAWSWAFLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n4, n6  int
		wantErr string
	}{
		{"10,000 of each family", 10000, 10000, ""},
		{"10,001 IPv4", 10001, 3, "10001 IPv4 entries"},
		{"10,001 IPv6", 3, 10001, "10001 IPv6 entries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := WriteAWSWAF(&out, awsWAFManyList(tc.n4, tc.n6))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				f := awsWAFRead(t, out.Bytes())
				if len(f.IPV4.Addresses) != tc.n4 || len(f.IPV6.Addresses) != tc.n6 {
					t.Errorf("%d and %d addresses, want %d and %d", len(f.IPV4.Addresses), len(f.IPV6.Addresses), tc.n4, tc.n6)
				}
				return
			}
			if err == nil {
				t.Fatal("no error over the limit")
			}
			for _, s := range []string{tc.wantErr, "10,000", "AWS WAF IP set", "--block-aggregate", "--block-min"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
			if out.Len() != 0 {
				t.Errorf("wrote %d bytes over the limit", out.Len())
			}
		})
	}
}

func TestAWSWAFHelpers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"crawlaudit block list: 3 IPv4 entries (made now; by me)", "crawlaudit block list: 3 IPv4 entries _made now_ by me_"},
		{`=evil "name"`, "_evil _name_"},
		{"ab", ""},
		{strings.Repeat("x", 300), strings.Repeat("x", 253) + "..."},
	} {
		if got := awsWAFDescription(tc.in); got != tc.want {
			t.Errorf("awsWAFDescription(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"192.0.2.0/24", []string{"192.0.2.0/24"}},
		{"0.0.0.0/0", []string{"0.0.0.0/1", "128.0.0.0/1"}},
		{"::/0", []string{"::/1", "8000::/1"}},
	} {
		var got []string
		for _, p := range awsWAFPrefixes(netip.MustParsePrefix(tc.in)) {
			got = append(got, p.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("awsWAFPrefixes(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

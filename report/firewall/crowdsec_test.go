package firewall

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

func TestCrowdSecGolden(t *testing.T) {
	checkGolden(t, "blocklist.crowdsec.json", writeFile(t, "crowdsec", "blocklist.crowdsec.json", fixtureList(t)))
}

// cscliDecision has exactly the fields cscli decisions import documents
// for JSON (https://docs.crowdsec.net/docs/cscli/cscli_decisions_import/):
// {"duration": "24h", "reason": "my_scenario", "scope": "ip", "type": "ban", "value": "x.y.z.z"}.
type cscliDecision struct {
	Duration string `json:"duration"`
	Reason   string `json:"reason"`
	Scope    string `json:"scope"`
	Type     string `json:"type"`
	Value    string `json:"value"`
}

// crowdSecRead decodes the file strictly: a JSON array of objects with no
// field but the documented ones, spelled exactly so.
func crowdSecRead(t *testing.T, out []byte) []cscliDecision {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	var ds []cscliDecision
	if err := dec.Decode(&ds); err != nil {
		t.Fatalf("decoding: %v\n%s", err, out)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("data after the JSON array: %v", err)
	}
	if ds == nil {
		t.Errorf("null, want an array:\n%s", out)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	for i, m := range raw {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !slices.Contains([]string{"duration", "reason", "scope", "type", "value"}, k) {
				t.Errorf("decision %d: field %q is not one cscli reads", i, k)
			}
		}
	}
	return ds
}

// TestCrowdSecReadBack checks every field of every decision: one per
// block, in order.
func TestCrowdSecReadBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    *List
	}{
		{"fixture", fixtureList(t)},
		{"hostile bot names", hostileList(t)},
		{"empty", &List{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := crowdSecRead(t, writeFile(t, "crowdsec", "blocklist.crowdsec.json", tc.l))
			if len(ds) != len(tc.l.Blocks) {
				t.Fatalf("%d decisions, want one per block: %d", len(ds), len(tc.l.Blocks))
			}
			for i, b := range tc.l.Blocks {
				d := ds[i]
				want := cscliDecision{Duration: crowdSecDuration(tc.l.Meta.TTL), Reason: "crawlaudit: " + b.Reason(), Scope: "Range", Type: "ban", Value: b.CIDR()}
				if b.Single() {
					want.Scope, want.Value = "Ip", b.Prefix.Addr().String()
				}
				if d != want {
					t.Errorf("decision %d = %+v, want %+v", i, d, want)
				}
				if dur, err := time.ParseDuration(d.Duration); err != nil || dur != tc.l.Meta.TTL {
					t.Errorf("decision %d: duration %q is %v, %v; want %v", i, d.Duration, dur, err, tc.l.Meta.TTL)
				}
				if d.Scope == "Ip" {
					if _, err := netip.ParseAddr(d.Value); err != nil {
						t.Errorf("decision %d: Ip %q: %v", i, d.Value, err)
					}
				} else if _, err := netip.ParsePrefix(d.Value); err != nil {
					t.Errorf("decision %d: Range %q: %v", i, d.Value, err)
				}
				if strings.ContainsFunc(d.Reason, func(r rune) bool {
					return r > unicode.MaxASCII || unicode.IsControl(r) || strings.ContainsRune(`"\{}#$`+"`", r)
				}) {
					t.Errorf("decision %d: reason %q not sanitized", i, d.Reason)
				}
			}
		})
	}
}

// TestCrowdSecDuration checks the duration written for --block-ttl, and
// that none is written without one (cscli then uses its --duration).
func TestCrowdSecDuration(t *testing.T) {
	for _, tc := range []struct {
		ttl  time.Duration
		want string
	}{
		{720 * time.Hour, "720h"},
		{24 * time.Hour, "24h"},
		{90 * time.Minute, "1h30m"},
		{10 * time.Minute, "10m"},
		{45 * time.Second, "45s"},
		{time.Hour + time.Second, "1h0m1s"},
		{0, ""},
		{-time.Hour, ""},
	} {
		l := &List{Meta: Meta{TTL: tc.ttl}, Entries: []Entry{{Addr: netip.MustParseAddr("192.0.2.1")}}}
		l.Blocks = []Block{{Prefix: netip.MustParsePrefix("192.0.2.1/32"), Entries: l.Entries}}
		out := writeFile(t, "crowdsec", "blocklist.crowdsec.json", l)
		ds := crowdSecRead(t, out)
		if len(ds) != 1 || ds[0].Duration != tc.want {
			t.Errorf("TTL %v: %s, want duration %q", tc.ttl, out, tc.want)
			continue
		}
		if tc.want == "" {
			if bytes.Contains(out, []byte(`"duration"`)) {
				t.Errorf("TTL %v: a duration field: %s", tc.ttl, out)
			}
			continue
		}
		if d, err := time.ParseDuration(tc.want); err != nil || d != tc.ttl {
			t.Errorf("TTL %v: %q parses as %v, %v", tc.ttl, tc.want, d, err)
		}
	}
}

// TestCrowdSecAsMarshalIndent: the decisions written one at a time are the
// bytes json.MarshalIndent made of the whole array (the format before
// streaming), for no block, one, and the fixture's, with and without a TTL.
func TestCrowdSecAsMarshalIndent(t *testing.T) {
	for _, n := range []int{0, 1, len(fixtureEntries())} {
		for _, ttl := range []time.Duration{0, 90 * time.Minute} {
			l, _ := Build(fixtureEntries()[:n], Options{}, Meta{TTL: ttl})
			ds := []crowdSecDecision{}
			for _, b := range l.Blocks {
				scope := "Range"
				if b.Single() {
					scope = "Ip"
				}
				d := crowdSecDecision{Reason: "crawlaudit: " + b.Reason(), Scope: scope, Type: "ban", Value: b.String()}
				if ttl > 0 {
					d.Duration = crowdSecDuration(ttl)
				}
				ds = append(ds, d)
			}
			want, err := json.MarshalIndent(ds, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := WriteCrowdSec(&got, l); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want)+"\n" {
				t.Errorf("%d entries, TTL %v:\n%s\nwant\n%s", n, ttl, got.String(), want)
			}
		}
	}
}

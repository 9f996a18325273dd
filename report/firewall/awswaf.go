package firewall

import (
	"encoding/json"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"
)

func init() {
	register(Format{Name: "aws-waf", Files: []File{{Name: "blocklist.aws-waf.json", Write: WriteAWSWAF}}})
}

// AWSWAFMaxAddresses is the most addresses (CIDRs) an AWS WAF IP set holds:
// "An IP set can hold up to 10,000 IP addresses or IP address ranges to
// check"
// (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-ipset-match.html).
const AWSWAFMaxAddresses = 10000

// awsWAFMaxDescription is the longest Description of an IP set
// (EntityDescription: 1 to 256 characters).
const awsWAFMaxDescription = 256

// awsWAFFile is blocklist.aws-waf.json.
type awsWAFFile struct {
	// Comment is the header of the list (Meta.Lines): JSON has no
	// comments, and the CLI never sees this field.
	Comment []string `json:"Comment"`
	// IPV4 and IPV6 are the inputs of aws wafv2 create-ip-set for each
	// family.
	IPV4 awsWAFIPSet `json:"IPV4"`
	IPV6 awsWAFIPSet `json:"IPV6"`
	// Reasons say why each address is listed: an IP set has no room for a
	// description per address.
	Reasons []awsWAFReason `json:"Reasons"`
}

// awsWAFIPSet holds the fields of CreateIPSet's request that the list
// decides; every one of them but IPAddressVersion is a field of
// UpdateIPSet's request too.
type awsWAFIPSet struct {
	Name             string   `json:"Name"`
	Scope            string   `json:"Scope"`
	Description      string   `json:"Description,omitempty"`
	IPAddressVersion string   `json:"IPAddressVersion"`
	Addresses        []string `json:"Addresses"`
}

type awsWAFReason struct {
	Address string `json:"Address"`
	Reason  string `json:"Reason"`
}

// WriteAWSWAF writes blocklist.aws-waf.json: the Addresses of one AWS WAF
// (wafv2) IP set per address family, each ready for --cli-input-json after
// one jq step:
//
//	{
//	  "Comment": ["crawlaudit block list: ...", ...],
//	  "IPV4": {"Name": "crawlaudit-ipv4", "Scope": "REGIONAL", "Description": "...",
//	           "IPAddressVersion": "IPV4", "Addresses": ["192.0.2.10/32", "198.51.100.4/30"]},
//	  "IPV6": {"Name": "crawlaudit-ipv6", ..., "IPAddressVersion": "IPV6", "Addresses": [...]},
//	  "Reasons": [{"Address": "192.0.2.10/32", "Reason": "disallowed 64, spoofed 64: Googlebot spoofed"}, ...]
//	}
//
// .IPV4 and .IPV6 hold exactly the fields of CreateIPSet's request
// (https://docs.aws.amazon.com/waf/latest/APIReference/API_CreateIPSet.html)
// that the list decides; UpdateIPSet's request
// (https://docs.aws.amazon.com/waf/latest/APIReference/API_UpdateIPSet.html)
// has them all but IPAddressVersion, and needs the Id and the LockToken
// that get-ip-set returns. Arguments given on the command line win over
// --cli-input-json (https://docs.aws.amazon.com/cli/v1/userguide/cli-usage-skeleton.html),
// so --name, --scope CLOUDFRONT (with --region us-east-1) replace the
// defaults. Both families are always present; a family without blocks has
// "Addresses": [], which the API accepts. Pass the JSON as a file
// (file://): an IP set of 10,000 addresses is longer than Linux allows one
// command-line argument to be (128 KiB). An update replaces the whole
// address list of the set.
//
// Rules from the API reference (IPSet, CreateIPSet): every address is in
// CIDR notation, a single address with /32 or /128; AWS WAF takes every
// IPv4 and IPv6 prefix length except /0 (the limits of WAF Classic, /8
// and /16 to /32, no longer apply), so a /0 block would be written as its
// two /1 halves (Build never makes one: 0.0.0.0 and :: are never listed).
// The Name matches ^[\w\-]+$; the Description matches
// ^[\w+=:#@/\-,\.][\w+=:#@/\-,\.\s]+[\w+=:#@/\-,\.]$ and is at most 256
// characters, so it is sanitized (Sanitize) and then stripped of the
// characters Sanitize keeps and AWS does not (';', '(', ')' become '_').
// An IP set has no description per address: the reasons go into
// "Reasons", which the CLI never reads, and the header into "Comment".
//
// When a family has more than AWSWAFMaxAddresses blocks, WriteAWSWAF
// writes nothing and returns an error that says so and how to shorten the
// list (--block-aggregate, --block-min).
func WriteAWSWAF(w io.Writer, l *List) error {
	f := awsWAFFile{
		Comment: l.Meta.Lines(l),
		Reasons: []awsWAFReason{},
	}
	for _, fam := range []struct {
		n    int
		name string
		set  *awsWAFIPSet
	}{{4, "IPv4", &f.IPV4}, {6, "IPv6", &f.IPV6}} {
		blocks := l.Family(fam.n)
		set := fam.set
		*set = awsWAFIPSet{
			Name:             "crawlaudit-" + strings.ToLower(fam.name),
			Scope:            "REGIONAL",
			IPAddressVersion: strings.ToUpper(fam.name),
			Addresses:        []string{},
		}
		addrs := 0
		for _, b := range blocks {
			addrs += len(b.Entries)
			for _, p := range awsWAFPrefixes(b.Prefix) {
				set.Addresses = append(set.Addresses, p.String())
				f.Reasons = append(f.Reasons, awsWAFReason{Address: p.String(), Reason: b.Reason()})
			}
		}
		if n := len(set.Addresses); n > AWSWAFMaxAddresses {
			return fmt.Errorf("aws-waf block list: %d %s entries, more than the 10,000 addresses an AWS WAF IP set holds; "+
				"merge them into fewer prefixes with --block-aggregate (e.g. /24,/64) or list fewer addresses with a higher --block-min", n, fam.name)
		}
		set.Description = awsWAFDescription(fmt.Sprintf("crawlaudit block list: %d %s entries for %d addresses, made %s by %s",
			len(set.Addresses), fam.name, addrs, l.Meta.Made.UTC().Format(time.RFC3339), nonEmpty(l.Meta.Tool, "crawlaudit")))
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("cannot write aws-waf block list: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("cannot write aws-waf block list: %w", err)
	}
	return nil
}

// awsWAFPrefixes returns p as AWS WAF takes it: p itself, or its two
// halves for a /0.
func awsWAFPrefixes(p netip.Prefix) []netip.Prefix {
	if p.Bits() != 0 {
		return []netip.Prefix{p}
	}
	lo := netip.PrefixFrom(p.Addr(), 1)
	hi := p.Addr().AsSlice()
	hi[0] |= 0x80
	a, _ := netip.AddrFromSlice(hi)
	return []netip.Prefix{lo, netip.PrefixFrom(a, 1)}
}

// awsWAFDescription returns s sanitized and restricted to the alphabet of
// an IP set's Description, or "" when too short for its pattern (three
// characters at least).
func awsWAFDescription(s string) string {
	s = Sanitize(s, awsWAFMaxDescription)
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(";()", r) {
			return '_'
		}
		return r
	}, s)
	if len(s) < 3 {
		return ""
	}
	return s
}

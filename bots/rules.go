package bots

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/crawlaudit/crawlaudit/internal/safefile"
)

// Operator rules: how a crawler reads robots.txt where its
// operator documents something beyond RFC 9309. The built-in table is
// operators.json, each entry with the URL of the documentation it comes
// from; --operators FILE extends or replaces it (LoadRules).

//go:embed operators.json
var builtinRules []byte

// CrawlerRule is what one crawler's operator documents about how it reads
// robots.txt.
type CrawlerRule struct {
	// Token is the crawler's name (Bot.Name, its robots.txt product
	// token), matched case-insensitively.
	Token string `yaml:"token" json:"token"`
	// IgnoresStar: the crawler obeys only groups that name it and ignores
	// the "*" group (AdsBot-Google): with no group of its own, nothing
	// restricts it.
	IgnoresStar bool `yaml:"ignores_star,omitempty" json:"ignores_star,omitempty"`
	// Follows are the tokens whose group the crawler obeys when no group
	// names it (Googlebot-Image follows Googlebot), tried in order before
	// "*". Only these tokens are tried: a followed crawler's own
	// fallbacks are not.
	Follows []string `yaml:"follows,omitempty" json:"follows,omitempty"`
	// UserTriggered: a fetcher a user set off, for which the operator
	// states that robots.txt does not apply (ChatGPT-User). Its requests
	// that robots.txt would disallow have the verdict user_triggered, not
	// disallowed, and are never blocked.
	UserTriggered bool `yaml:"user_triggered,omitempty" json:"user_triggered,omitempty"`
	// Source is the URL of the operator's documentation.
	Source string `yaml:"source" json:"source"`
}

// OperatorRule is what an operator documents for all its crawlers.
type OperatorRule struct {
	// Operator is Bot.Operator ("Google"), matched case-insensitively.
	Operator string `yaml:"operator" json:"operator"`
	// Grace is how long the operator's crawlers may keep a cached
	// robots.txt ("24h"): a request a new version disallows, made within
	// it and allowed by the version before, is disallowed_in_grace. It
	// replaces --grace for this operator's crawlers.
	Grace string `yaml:"grace,omitempty" json:"grace,omitempty"`
	// Source is the URL of the operator's documentation.
	Source string `yaml:"source" json:"source"`
	// CrawlDelay is what the operator documents of Crawl-delay, when it
	// says its crawlers do not support it.
	CrawlDelay *CrawlDelayRule `yaml:"crawl_delay,omitempty" json:"crawl_delay,omitempty"`

	grace          time.Duration
	delayIgnoredAt time.Time
}

// CrawlDelayRule says that an operator's crawlers ignore Crawl-delay
// (Google's; Yandex's since 2018): their short gaps count as
// crawl_delay_unsupported, not as crawl_delay_breaches, and the reports
// point to the operator's own control of its crawl rate.
type CrawlDelayRule struct {
	// Unsupported: the operator's crawlers ignore Crawl-delay.
	Unsupported bool `yaml:"unsupported" json:"unsupported"`
	// Since is the day (YYYY-MM-DD, UTC) or instant (RFC 3339) from which
	// they ignore it; requests before it are held to Crawl-delay. Empty:
	// always.
	Since string `yaml:"since,omitempty" json:"since,omitempty"`
	// Control names where the operator lets a site set its crawl rate
	// ("Search Console"), and ControlURL documents it.
	Control    string `yaml:"control,omitempty" json:"control,omitempty"`
	ControlURL string `yaml:"control_url,omitempty" json:"control_url,omitempty"`
	// Source is the URL of the operator's statement.
	Source string `yaml:"source" json:"source"`
}

// CrawlDelayIgnored reports whether the operator's crawlers ignore
// Crawl-delay, and from when (the zero time: always).
func (o OperatorRule) CrawlDelayIgnored() (since time.Time, ok bool) {
	if o.CrawlDelay == nil || !o.CrawlDelay.Unsupported {
		return time.Time{}, false
	}
	return o.delayIgnoredAt, true
}

// GraceDuration returns the parsed Grace and whether one is set.
func (o OperatorRule) GraceDuration() (time.Duration, bool) { return o.grace, o.Grace != "" }

// RulesFile is the shape of operators.json and of a --operators file (JSON
// or YAML).
type RulesFile struct {
	// Replace: the file's entries replace the built-in table; otherwise
	// (the default) they extend it, an entry replacing the built-in one
	// of the same token or operator.
	Replace   bool           `yaml:"replace,omitempty" json:"replace,omitempty"`
	Crawlers  []CrawlerRule  `yaml:"crawlers" json:"crawlers"`
	Operators []OperatorRule `yaml:"operators" json:"operators"`
}

// Rules are the operator rules in force for an audit. The zero value has
// none. A Rules is immutable and safe for concurrent use.
type Rules struct {
	crawlers  map[string]CrawlerRule  // by lower-cased token
	operators map[string]OperatorRule // by lower-cased operator
}

// BuiltinRules returns the built-in table (operators.json).
func BuiltinRules() *Rules {
	r, err := ParseRules("operators.json", builtinRules, nil)
	if err != nil {
		panic("bots: built-in operators.json: " + err.Error()) // a build defect, tested
	}
	return r
}

// MaxRulesBytes bounds a --operators file: the built-in table is a few
// kilobytes, and a path to a device or a huge file must not fill memory.
const MaxRulesBytes = 4 << 20

// LoadRules reads a --operators file (a regular file of at most
// MaxRulesBytes) and applies it to the built-in table.
func LoadRules(path string) (*Rules, error) {
	data, err := safefile.ReadFile(path, MaxRulesBytes)
	if err != nil {
		return nil, err
	}
	return ParseRules(path, data, BuiltinRules())
}

// ParseRules parses a rules file (JSON or YAML; name is for messages) and
// applies it to base (nil: none). Unknown fields, an entry without a token
// or operator, a duplicate, a token with a space or a bad duration are
// errors naming the file and line.
func ParseRules(name string, data []byte, base *Rules) (*Rules, error) {
	var f RulesFile
	var node yaml.Node
	if err := yaml.Unmarshal(data, &node); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", name, strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n  "))
	}
	lines := entryLines(&node)
	r := &Rules{crawlers: map[string]CrawlerRule{}, operators: map[string]OperatorRule{}}
	if base != nil && !f.Replace {
		for k, v := range base.crawlers {
			r.crawlers[k] = v
		}
		for k, v := range base.operators {
			r.operators[k] = v
		}
	}
	seen := map[string]bool{}
	for i, c := range f.Crawlers {
		at := fmt.Sprintf("%s:%d", name, lines["crawlers"][i])
		c.Token = strings.TrimSpace(c.Token)
		if !validToken(c.Token) {
			return nil, fmt.Errorf("%s: crawler token %q: want a robots.txt product token (letters, digits, '-', '_')", at, c.Token)
		}
		k := strings.ToLower(c.Token)
		if seen[k] {
			return nil, fmt.Errorf("%s: crawler %q is listed twice", at, c.Token)
		}
		seen[k] = true
		for _, t := range c.Follows {
			if !validToken(t) || strings.EqualFold(t, c.Token) {
				return nil, fmt.Errorf("%s: crawler %q follows %q: want another crawler's token", at, c.Token, t)
			}
		}
		if c.UserTriggered && (c.IgnoresStar || len(c.Follows) > 0) {
			return nil, fmt.Errorf("%s: crawler %q: robots.txt does not apply to a user-triggered fetcher, so ignores_star and follows mean nothing", at, c.Token)
		}
		c.Follows = slices.Clone(c.Follows)
		r.crawlers[k] = c
	}
	seen = map[string]bool{}
	for i, o := range f.Operators {
		at := fmt.Sprintf("%s:%d", name, lines["operators"][i])
		o.Operator = strings.TrimSpace(o.Operator)
		if o.Operator == "" {
			return nil, fmt.Errorf("%s: an operator entry without an operator", at)
		}
		k := strings.ToLower(o.Operator)
		if seen[k] {
			return nil, fmt.Errorf("%s: operator %q is listed twice", at, o.Operator)
		}
		seen[k] = true
		if o.Grace != "" {
			d, err := time.ParseDuration(o.Grace)
			if err != nil || d < 0 {
				return nil, fmt.Errorf("%s: operator %q: grace %q: want a duration such as 24h or 0s", at, o.Operator, o.Grace)
			}
			o.grace = d
		}
		if c := o.CrawlDelay; c != nil && c.Since != "" {
			t, err := time.Parse(time.DateOnly, c.Since)
			if err != nil {
				t, err = time.Parse(time.RFC3339, c.Since)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: operator %q: crawl_delay since %q: want a day such as 2018-02-22 or an RFC 3339 time", at, o.Operator, c.Since)
			}
			o.delayIgnoredAt = t.UTC()
		}
		r.operators[k] = o
	}
	return r, nil
}

// entryLines returns the line of each entry of the top-level sequences.
func entryLines(doc *yaml.Node) map[string][]int {
	out := map[string][]int{}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i].Value, doc.Content[i+1]
		for _, e := range v.Content {
			out[k] = append(out[k], e.Line)
		}
	}
	return out
}

// validToken reports whether t can be a robots.txt product token (RFC 9309
// §2.2.1: letters, '-' and '_'; digits too, as real crawlers use them).
func validToken(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(isLetter(c) || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Crawler returns the rule of the crawler named name, if any.
func (r *Rules) Crawler(name string) (CrawlerRule, bool) {
	if r == nil {
		return CrawlerRule{}, false
	}
	c, ok := r.crawlers[strings.ToLower(name)]
	return c, ok
}

// Operator returns the rule of operator, if any.
func (r *Rules) Operator(operator string) (OperatorRule, bool) {
	if r == nil || operator == "" {
		return OperatorRule{}, false
	}
	o, ok := r.operators[strings.ToLower(operator)]
	return o, ok
}

// CrawlerRules returns every crawler rule, by token.
func (r *Rules) CrawlerRules() []CrawlerRule {
	if r == nil {
		return nil
	}
	out := make([]CrawlerRule, 0, len(r.crawlers))
	for _, c := range r.crawlers {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b CrawlerRule) int { return strings.Compare(strings.ToLower(a.Token), strings.ToLower(b.Token)) })
	return out
}

// OperatorRules returns every operator rule, by operator.
func (r *Rules) OperatorRules() []OperatorRule {
	if r == nil {
		return nil
	}
	out := make([]OperatorRule, 0, len(r.operators))
	for _, o := range r.operators {
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b OperatorRule) int {
		return strings.Compare(strings.ToLower(a.Operator), strings.ToLower(b.Operator))
	})
	return out
}

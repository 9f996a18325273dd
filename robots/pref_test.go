package robots

import (
	"strings"
	"testing"
)

// prefString renders preferences as "train-ai=n@3 ai-use=- search=y@4"
// (value and line per category, "-" when unset) for compact test rows.
func prefString(p Preferences) string {
	var b strings.Builder
	for c := Category(0); c < NumCategories; c++ {
		if c > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.String())
		b.WriteByte('=')
		if p[c].Value == Unset {
			b.WriteByte('-')
			continue
		}
		b.WriteString(p[c].Value.String())
		b.WriteByte('@')
		b.WriteString(itoa(p[c].Line))
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// attach05Example is the robots.txt of draft-ietf-aipref-attach-05 §3.4
// ("Example robots.txt file").
const attach05Example = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`

// TestPreferences: the preference in effect per crawler and path, each row
// traced to the text it comes from.
func TestPreferences(t *testing.T) {
	for _, tc := range []struct {
		name, file, agent, target string
		want                      string
	}{
		// draft-ietf-aipref-attach-05 §3.4, table "Sample of usage
		// preferences for different paths".
		{"Attach05_3_4_test", attach05Example, "OtherBot", "/test", "train-ai=n@4 ai-use=- search=-"},
		{"Attach05_3_4_aiok", attach05Example, "OtherBot", "/ai-ok/test", "train-ai=y@5 ai-use=- search=-"},
		// "A crawler that identifies as ExampleBot uses the second group
		// [...] obtain all content and apply usage preferences of [train-ai=y]".
		{"Attach05_3_4_ExampleBot", attach05Example, "ExampleBot", "/ai-ok/test", "train-ai=y@9 ai-use=- search=-"},
		{"Attach05_3_4_ExampleBot_root", attach05Example, "Mozilla/5.0 (compatible; ExampleBot/1.0)", "/test", "train-ai=y@9 ai-use=- search=-"},
		// draft-ietf-aipref-attach-05 §1.2: the robots.txt example.
		{"Attach05_1_2", "User-Agent: *\nAllow: /\nContent-Usage: train-ai=n\n", "GPTBot", "/any/page", "train-ai=n@3 ai-use=- search=-"},
		// draft-ietf-aipref-vocab-07 §6: "train-ai=y, search=n".
		{"Vocab07_6_example", "User-agent: *\nContent-Usage: train-ai=y, search=n\n", "a", "/", "train-ai=y@2 ai-use=- search=n@2"},
		// draft-ietf-aipref-vocab-07 §6.5.1: "the following results in all
		// preferences being unknown".
		{"Vocab07_6_5_1_duplicates", "User-agent: *\nContent-Usage: train-ai=y, train-ai, search=n, search=\"n\"\n", "a", "/", "train-ai=- ai-use=- search=-"},
		// §6.5.1: "If the parsing of the Dictionary fails, preferences are
		// unknown. This includes where keys include uppercase characters".
		{"Vocab07_6_5_1_uppercase", "User-agent: *\nContent-Usage: Train-AI=n\n", "a", "/", "train-ai=- ai-use=- search=-"},
		// §6.5.2: "the following preference carries no parameters, and a
		// preference to allow the usage: train-ai;allow=n, train-ai=y".
		{"Vocab07_6_5_2_params", "User-agent: *\nContent-Usage: train-ai;allow=n, train-ai=y\n", "a", "/", "train-ai=y@2 ai-use=- search=-"},
		// §6.5.2: "the following train-ai preference has parameters even
		// though the preference is unknown".
		{"Vocab07_6_5_2_unknown", "User-agent: *\nContent-Usage: train-ai;has;parameters=\"?\";\n", "a", "/", "train-ai=- ai-use=- search=-"},
		// §6.5: values other than the Tokens y and n are unknown.
		{"Vocab07_6_5_notToken", "User-agent: *\nContent-Usage: train-ai=no, search=?1, ai-use=\"n\"\n", "a", "/", "train-ai=- ai-use=- search=-"},
		// vocab-07 §4 defines its categories with no hierarchy (and vocab-02
		// §4 drew AI training, AI use and search as separate subsets of
		// automated processing): no category's preference implies another's.
		{"Vocab07_4_independent", "User-agent: *\nContent-Usage: ai-use=n\n", "a", "/", "train-ai=- ai-use=n@2 search=-"},
		{"Vocab07_4_independentYes", "User-agent: *\nContent-Usage: ai-use=y, train-ai=n\n", "a", "/", "train-ai=n@2 ai-use=y@2 search=-"},
		// Obsolete parents (vocab-02 "all", vocab-03 "bots") no longer
		// reach their former children.
		{"Vocab02_obsoleteParent", "User-agent: *\nContent-Usage: all=n, bots=n\n", "a", "/", "train-ai=- ai-use=- search=-"},
		// §6.4: unknown labels are ignored, the rest is read.
		{"Vocab07_6_4_unknownLabel", "User-agent: *\nContent-Usage: train-ai=n, foo=n, ai=n\n", "a", "/", "train-ai=n@2 ai-use=- search=-"},
		// attach-05 §3.1: identical paths, conflicting preferences apply
		// separately, combined as vocab-07 §5.1 says: n wins.
		{"Attach05_3_1_identicalPaths", "User-agent: *\nContent-Usage: /a/ train-ai=y, search=y\nContent-Usage: /a/ train-ai=n\n", "a", "/a/x", "train-ai=n@3 ai-use=- search=y@2"},
		// attach-05 §3.1: the longest matching path decides, counted in
		// octets of the encoded path ("/café/" is "/caf%C3%A9/").
		{"Attach05_3_1_encoded", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /caf%C3%A9/ train-ai=y\n", "a", "/café/menu", "train-ai=y@3 ai-use=- search=-"},
		{"Attach05_3_1_wildcard", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: ai-use=y\n", "a", "/docs/a.pdf", "train-ai=n@2 ai-use=- search=-"},
		{"Attach05_3_1_wildcardMiss", "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: ai-use=y\n", "a", "/docs/a.pdf?x", "train-ai=- ai-use=y@3 search=-"},
		// attach-05 §3.1: the longest match decides the whole statement:
		// under /news/ train-ai is not stated, so unknown.
		{"Attach05_3_1_wholeStatement", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /news/ search=y\n", "a", "/news/today", "train-ai=- ai-use=- search=y@3"},
		// attach-05 §3.1: "The ordering of rules in a group carries no
		// semantics": interleaved with Allow/Disallow.
		{"Attach05_3_1_ordering", "User-agent: *\nContent-Usage: /a/ search=n\nDisallow: /b/\nContent-Usage: search=y\n", "a", "/a/", "train-ai=- ai-use=- search=n@2"},
		// A group's line applies to its crawlers only (attach-05 §3.1: "Each
		// group in the file applies to a set of crawlers").
		{"Attach05_3_1_otherGroup", "User-agent: GPTBot\nContent-Usage: train-ai=n\n\nUser-agent: *\nAllow: /\n", "Googlebot", "/", "train-ai=- ai-use=- search=-"},
		// RFC 9309 §2.2.1 merges the groups of one token; their lines apply together.
		{"RFC9309_2_2_1_merged", "User-agent: a\nContent-Usage: train-ai=n\n\nUser-agent: a\nContent-Usage: /x search=n\n", "a", "/x", "train-ai=- ai-use=- search=n@5"},
		// draft-romm-aipref-contentsignals-00 §4 labels, read as the
		// vocabulary's categories: ai-train train-ai, ai-input ai-use.
		{"ContentSignals00_4", "User-agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no\n", "a", "/", "train-ai=n@2 ai-use=n@2 search=y@2"},
		// Cloudflare's managed robots.txt (its Content Signals Policy,
		// https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/):
		// "use=reference" is known and no category.
		{"Cloudflare_managed", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", "a", "/", "train-ai=n@2 ai-use=- search=y@2"},
		// contentsignals.org writes the line before the group: outside any
		// group it applies to every crawler.
		{"ContentSignals_outsideGroup", "Content-Signal: search=yes, ai-input=yes, ai-train=no\nUser-Agent: GPTBot\nDisallow: /private/\n", "GPTBot", "/", "train-ai=n@1 ai-use=y@1 search=y@1"},
		{"ContentSignals_outsideGroup_noGroup", "Content-Signal: ai-train=no\nUser-Agent: GPTBot\nDisallow: /\n", "Googlebot", "/", "train-ai=n@1 ai-use=- search=-"},
		// A group's own line for the same path decides over one outside
		// any group (crawlaudit's choice, docs/preferences.md).
		{"OwnOverShared", "Content-Usage: train-ai=n\nUser-agent: a\nContent-Usage: train-ai=y\n", "a", "/", "train-ai=y@3 ai-use=- search=-"},
		{"SharedLongerPath", "Content-Usage: /x/ train-ai=n\nUser-agent: a\nContent-Usage: train-ai=y\n", "a", "/x/1", "train-ai=n@1 ai-use=- search=-"},
		// Two methods of stating preferences combine, n winning
		// (draft-ietf-aipref-vocab-07 §5.1).
		{"Vocab07_5_1_twoMethods", "User-agent: *\nContent-Usage: train-ai=y, search=y\nContent-Signal: ai-train=no\n", "a", "/", "train-ai=n@3 ai-use=- search=y@2"},
		// A path-less line is the fallback ("or without one for every path").
		{"NoPath", "User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: train-ai=n\n", "a", "/b", "train-ai=n@3 ai-use=- search=-"},
		{"NoLines", "User-agent: *\nDisallow: /x\n", "a", "/", "train-ai=- ai-use=- search=-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.file))
			g := Compile(f, RFC9309).Resolve(tc.agent)
			got, _ := g.PreferencesString(tc.target, nil)
			if s := prefString(got); s != tc.want {
				t.Errorf("%s for %s:\n got %s\nwant %s", tc.target, tc.agent, s, tc.want)
			}
		})
	}
}

// TestPreferencesEveryProfile: the same lines are read by every profile,
// through each profile's groups (a site's declared preference does not depend on
// which parsing profile the audit uses).
func TestPreferencesEveryProfile(t *testing.T) {
	f := Parse([]byte("Content-Signal: search=yes\nUser-agent: GPTBot\nDisallow: /private/\nContent-Usage: train-ai=n\nContent-Usage: /open/ train-ai=y\n\nUser-agent: *\nDisallow:\n"))
	for _, p := range Profiles {
		r := Compile(f, p)
		for _, tc := range []struct{ agent, target, want string }{
			{"GPTBot", "/a", "train-ai=n@4 ai-use=- search=y@1"},
			{"GPTBot", "/open/a", "train-ai=y@5 ai-use=- search=y@1"},
			{"Googlebot", "/a", "train-ai=- ai-use=- search=y@1"},
		} {
			got, _ := r.Resolve(tc.agent).PreferencesString(tc.target, nil)
			if s := prefString(got); s != tc.want {
				t.Errorf("%s: %s %s: got %s, want %s", p, tc.agent, tc.target, s, tc.want)
			}
		}
	}
}

// TestPreferencesKeepRules: a Content-Usage line is a rule of its group
// (draft-ietf-aipref-attach-05 §3: "rule =/ content-usage"), so a
// User-agent line after it starts a new group, and the Allow/Disallow
// answers of a file do not change when preferences are added.
func TestPreferencesKeepRules(t *testing.T) {
	f := Parse([]byte("User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n"))
	if len(f.Groups) != 2 {
		t.Fatalf("%d groups, want 2", len(f.Groups))
	}
	r := Compile(f, RFC9309)
	if d, _ := r.Resolve("a").DecideString("/x", nil); !d.Allowed {
		t.Errorf("a: /x disallowed by %s, want allowed (its group has no Disallow)", d.Rule)
	}
	if d, _ := r.Resolve("b").DecideString("/x", nil); d.Allowed {
		t.Errorf("b: /x allowed, want disallowed")
	}
	if p, _ := r.Resolve("b").PreferencesString("/x", nil); p.Any() {
		t.Errorf("b: preferences %s, want none", prefString(p))
	}
}

// TestPreferencesStatements: the statements are kept with their lines, for
// the reports.
func TestPreferencesStatements(t *testing.T) {
	f := Parse([]byte(attach05Example))
	if !f.HasPreferences() {
		t.Fatal("HasPreferences false")
	}
	var got []string
	for _, g := range f.Groups {
		for _, st := range g.Preferences {
			got = append(got, itoa(st.Line)+" "+st.String())
		}
	}
	want := []string{"4 Content-Usage: train-ai=n", "5 Content-Usage: /ai-ok/ train-ai=y", "9 Content-Usage: train-ai=y"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("statements %q, want %q", got, want)
	}
	if Parse([]byte("User-agent: *\nDisallow: /\n")).HasPreferences() {
		t.Error("HasPreferences true for a file without preferences")
	}
}

// TestPreferenceDiagnostics: what lint says about preference lines, with
// the line each finding is about.
func TestPreferenceDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string // "line code" of each preference diagnostic
		contains   string   // a phrase one message must contain
	}{
		// draft-ietf-aipref-vocab-01 §4.2 defined "ai" (AI Training);
		// vocab-07 §6.1 has train-ai and search only.
		{"obsolete_ai", "User-agent: *\nContent-Usage: ai=n\n", []string{"2 preference-obsolete-label"}, "write train-ai"},
		{"obsolete_bots", "User-agent: *\nContent-Usage: bots=n, train-ai=n\n", []string{"2 preference-obsolete-label"}, "draft-ietf-aipref-vocab-03"},
		{"unknown", "User-agent: *\nContent-Usage: train-ai=n, foo=y\n", []string{"2 preference-unknown-label"}, "unknown label \"foo\""},
		// Content-Signal's label in Content-Usage: the author meant train-ai.
		{"wrongVocabulary", "User-agent: *\nContent-Usage: ai-train=no\n", []string{"2 preference-unknown-label"}, "writes train-ai=n"},
		{"wrongVocabularySignal", "User-agent: *\nContent-Signal: train-ai=n\n", []string{"2 preference-unknown-label"}, "writes ai-train=no"},
		// RFC 9651 §4.2.2: a trailing comma fails the dictionary.
		{"malformed_trailingComma", "User-agent: *\nContent-Usage: train-ai=n,\n", []string{"2 preference-malformed"}, "every preference on this line is unknown"},
		{"malformed_uppercase", "User-agent: *\nContent-Usage: Train-AI=n\n", []string{"2 preference-malformed"}, "lower case"},
		{"malformed_spaceSeparated", "User-agent: *\nContent-Signal: ai-train=no search=yes\n", []string{"2 preference-malformed"}, "\",\""},
		{"malformed_pathStar", "User-agent: *\nContent-Usage: *.pdf train-ai=n\n", []string{"2 preference-malformed"}, "a path starts with"},
		{"badValue_yesInUsage", "User-agent: *\nContent-Usage: train-ai=no\n", []string{"2 preference-bad-value"}, "Content-Signal's spelling"},
		{"badValue_boolean", "User-agent: *\nContent-Usage: train-ai\n", []string{"2 preference-bad-value"}, "true (no =)"},
		{"badValue_signal", "User-agent: *\nContent-Signal: ai-train=n\n", []string{"2 preference-bad-value"}, "Content-Usage's spelling"},
		{"duplicateLabel", "User-agent: *\nContent-Usage: train-ai=n, train-ai=y\n", []string{"2 preference-duplicate-label"}, "the last, y, applies"},
		{"duplicateLine", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: train-ai=y\n", []string{"3 preference-duplicate"}, "n wins"},
		{"duplicateLineSame", "Content-Signal: ai-train=no\nContent-Signal: ai-train=no\nUser-agent: *\n", []string{"2 preference-duplicate"}, "outside any group (line 1): both apply, it repeats it"},
		{"empty", "User-agent: *\nContent-Usage: /x/\n", []string{"2 preference-empty"}, "\"/x/\""},
		{"noDuplicateAcrossGroups", "User-agent: a\nContent-Usage: train-ai=n\n\nUser-agent: b\nContent-Usage: train-ai=n\n", nil, ""},
		{"cloudflareClean", "User-agent: *\nContent-Signal: search=yes,ai-train=no,use=reference\nAllow: /\n", nil, ""},
		{"outsideGroupIsNoError", "Content-Usage: train-ai=n\nUser-agent: *\nDisallow:\n", nil, ""},
		// attach-05 §3.1: the longest match decides the whole statement.
		{"shadowed", "User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Usage: /news/ search=y\n", []string{"3 preference-shadowed"}, "what line 2 states (train-ai=n)"},
		{"shadowedByFileLevel", "Content-Signal: ai-train=no\nUser-agent: *\nContent-Signal: /news/ search=yes\n", []string{"3 preference-shadowed"}, "(ai-train=no)"},
		{"notShadowed", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /news/ train-ai=y\nContent-Usage: /news/*.pdf train-ai=n, search=n\n", nil, ""},
		{"notShadowedSamePath", "User-agent: *\nContent-Usage: search=y\nContent-Usage: /a/ search=y\nContent-Usage: /a/ train-ai=n\n", []string{"4 preference-duplicate"}, ""},
		{"shadowedWildcard", "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /*.pdf search=n\n", []string{"3 preference-shadowed"}, "under \"/*.pdf\""},
		// A misspelt key is reported as such.
		{"misspelt", "User-agent: *\nContent-Useage: train-ai=n\n", []string{"2 misspelled-key"}, "Content-Usage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Parse([]byte(tc.file))
			var got []string
			found := tc.contains == ""
			for _, d := range f.Diagnostics {
				if strings.HasPrefix(string(d.Code), "preference-") || d.Code == CodeMisspelledKey {
					got = append(got, itoa(d.Line)+" "+string(d.Code))
					found = found || strings.Contains(d.Message, tc.contains)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("diagnostics %q, want %q\n%v", got, tc.want, f.Diagnostics)
			}
			if !found {
				t.Errorf("no message contains %q: %v", tc.contains, f.Diagnostics)
			}
		})
	}
}

// TestPreferencesNoAlloc: the lookup allocates nothing once the buffer has
// grown, as Decide.
func TestPreferencesNoAlloc(t *testing.T) {
	g := Compile(Parse([]byte(attach05Example+"Content-Signal: ai-train=no\nContent-Usage: /caf%C3%A9/ search=n\n")), RFC9309).Resolve("OtherBot")
	buf := make([]byte, 0, 256)
	targets := []string{"/test", "/ai-ok/test?q=1", "/caf%c3%a9/x", "/never/x"}
	allocs := testing.AllocsPerRun(200, func() {
		for _, tg := range targets {
			_, buf = g.PreferencesString(tg, buf)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// cloudflareDocExample is the "Feature enabled" robots.txt of Cloudflare's
// managed robots.txt documentation
// (https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/),
// comment block shortened: the managed block prepended to the site's own
// file.
const cloudflareDocExample = `# As a condition of accessing this website, you agree to abide by the
# following content signals:
# ai-train: training or fine-tuning AI models.

# BEGIN Cloudflare Managed content

User-Agent: *
Content-signal: search=yes, ai-train=no
Allow: /

User-agent: Amazonbot
Disallow: /

User-agent: GPTBot
Disallow: /

# END Cloudflare Managed Content
User-agent: *
Disallow: /lp
Disallow: /feedback
Disallow: /langtest

Sitemap: https://www.crawlstop.com/sitemap.xml
`

// TestPreferencesCloudflareDoc: the two "*" groups merge (RFC 9309
// §2.2.1), so the signal applies to every crawler without a group of its
// own, also under the site's own Disallow lines; a crawler with its own
// group (GPTBot) gets none of the "*" group's lines, the signal included.
func TestPreferencesCloudflareDoc(t *testing.T) {
	f := Parse([]byte(cloudflareDocExample))
	for _, d := range f.Diagnostics {
		if strings.HasPrefix(string(d.Code), "preference-") {
			t.Errorf("diagnostic %v", d)
		}
	}
	r := Compile(f, RFC9309)
	for _, tc := range []struct{ agent, target, want string }{
		{"PerplexityBot", "/blog/x", "train-ai=n@8 ai-use=- search=y@8"},
		{"PerplexityBot", "/lp/x", "train-ai=n@8 ai-use=- search=y@8"},
		{"GPTBot", "/blog/x", "train-ai=- ai-use=- search=-"},
	} {
		got, _ := r.Resolve(tc.agent).PreferencesString(tc.target, nil)
		if s := prefString(got); s != tc.want {
			t.Errorf("%s %s: got %s, want %s", tc.agent, tc.target, s, tc.want)
		}
	}
}

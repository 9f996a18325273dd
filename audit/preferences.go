package audit

import (
	"strings"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// declaredPreferences returns summary.json's "preferences": per host and
// version, in the history's order, the Content-Usage and Content-Signal
// lines the version declares, with their lines and groups; nil when none
// does. The lines are read as written (robots.Parse): which of them applies
// to a crawler is the judge's business (pref_exposed).
func declaredPreferences(hist *history.History) []report.PreferenceVersion {
	var out []report.PreferenceVersion
	for _, v := range hist.All() {
		f := robots.Parse(v.Data)
		var sts []report.PreferenceStatement
		add := func(group string, list []robots.Statement) {
			for _, st := range list {
				ps := report.PreferenceStatement{Directive: st.Kind.String(), Group: group, Path: st.Path,
					Value: st.Value, Prefs: map[string]string{}, Line: st.Line}
				for c, pv := range st.Prefs {
					if pv != robots.Unset {
						ps.Prefs[robots.Category(c).String()] = pv.String()
					}
				}
				sts = append(sts, ps)
			}
		}
		add("", f.Preferences)
		for _, g := range f.Groups {
			if len(g.Preferences) == 0 {
				continue
			}
			agents := make([]string, len(g.Agents))
			for i, a := range g.Agents {
				agents[i] = a.Value
			}
			add(strings.Join(agents, ", "), g.Preferences)
		}
		if len(sts) == 0 {
			continue
		}
		pv := report.PreferenceVersion{Host: v.Host, Version: v.Name, Statements: sts}
		if !v.Start.IsZero() {
			t := v.Start.UTC()
			pv.From = &t
		}
		out = append(out, pv)
	}
	return out
}

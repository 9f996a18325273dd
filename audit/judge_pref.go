package audit

import (
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/robots"
)

// prefKeyShift places a decision's refused categories above the rule's
// line in the key of groupState.byRule: two paths decided by one rule can
// be under different preferences (a Content-Usage line with a path of its
// own), and the key must tell them apart.
const prefKeyShift = 60

// prefRefusable returns the bits of the preference categories that refuse a
// crawler of purpose: train-ai=n refuses AI training, ai-use=n an AI search
// index or an assistant fetching for a user, search=n a search index. The
// categories are independent (draft-ietf-aipref-vocab-07 §4), so each
// purpose is refused by one category only.
func prefRefusable(purpose string) uint8 {
	switch purpose {
	case bots.PurposeAITraining:
		return 1 << robots.TrainAI
	case bots.PurposeAISearch, bots.PurposeAIAssistant:
		return 1 << robots.AIUse
	case bots.PurposeSearch:
		return 1 << robots.Search
	}
	return 0
}

// decidePrefs returns the bits of the categories that the preference in
// effect for g's crawlers on target refuses (says n for). A path the
// crawler may not fetch has none: draft-ietf-aipref-attach-05 §3.1 implies
// no preference for a disallowed resource, and fetching it is already a
// violation of its own. A file without Content-Usage or Content-Signal
// costs nothing here.
func (j *judge) decidePrefs(g *groupState, target string, allowed bool) uint8 {
	if !allowed || !g.group.HasPreferences() {
		return 0
	}
	var p robots.Preferences
	p, j.scratch = g.group.PreferencesString(target, j.scratch)
	var refused uint8
	for c := range p {
		if p[c].Value == robots.No {
			refused |= 1 << c
		}
	}
	return refused
}

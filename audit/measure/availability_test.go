package measure

import "testing"

// TestStateOf checks the states of RFC 9309 §2.3.1 that availability.sql
// gives a response.
func TestStateOf(t *testing.T) {
	for _, tc := range []struct {
		status int32
		has    bool
		want   State
	}{
		{200, true, StateOK}, {204, true, StateOK}, {299, true, StateOK},
		{500, true, StateUnreachable}, {503, true, StateUnreachable}, {599, true, StateUnreachable}, {429, true, StateUnreachable},
		{400, true, StateUnavailable}, {404, true, StateUnavailable}, {410, true, StateUnavailable}, {499, true, StateUnavailable},
		{301, true, StateNone}, {100, true, StateNone}, {600, true, StateNone}, {0, false, StateNone}, {-1, true, StateNone},
	} {
		if got := StateOf(tc.status, tc.has); got != tc.want {
			t.Errorf("StateOf(%d, %t) = %d, want %d", tc.status, tc.has, got, tc.want)
		}
	}
}

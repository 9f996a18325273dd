package audit

import "github.com/apache/arrow-go/v18/arrow"

// Column indices of RequestsSchema. The order is the order of the fields of
// the STRUCT column of table "requests_store" in queries/schema.sql, which
// the insert matches by position (see store.Store.InsertRequests).
const (
	rcTS = iota
	rcHostID
	rcClientIPID
	rcMethodID
	rcTargetID
	rcStatus
	rcBytes
	rcUserAgentID
	rcBotID
	rcFileID
	rcLine
	rcPolicyID
	rcDecisionID
	rcVisitBreach
	rcRobotsFetch
	rcClaimID
	rcTarget
	rcUserAgent
	rcClientIP
	rcRetryAfter
	rcPrefExposed
	rcNumCols
)

// RequestsSchema is the Arrow schema of the judged bot requests the audit
// hands to DuckDB. Every string (host, client address, method, target,
// User-Agent, bot, file) is an id into the table "dict" (DictSchema): DuckDB
// reads integers from Arrow several times as fast as strings, bots request
// the same paths from the same few addresses again and again, and the view
// "judged" joins the names back. What robots.txt puts in force (version,
// group, Crawl-delay, Request-rate, Visit-time) is one id into the table
// "policies", and the verdict with its deciding rule one id into the table
// "decisions": they take few distinct values, and every column less is less
// for the judge to build and for DuckDB to copy. The view "requests" joins
// them back (queries/schema.sql). Who really made the request is one id
// into the table "claims" (see claim): reverse DNS may settle a claim only
// after every row of it has gone in.
//
// The dict is bounded (see maxDictBytes): a target, User-Agent or client
// address that is very long, or new once the dict is full, is not interned
// but written into the row itself, in the column target, user_agent or
// client_ip, its *_id column NULL. A value is always written the same way
// (an interned one stays interned), so counting the distinct ids and the
// distinct strings counts distinct values.
var RequestsSchema = arrow.NewSchema([]arrow.Field{
	rcTS:          {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	rcHostID:      {Name: "host_id", Type: arrow.PrimitiveTypes.Int32},
	rcClientIPID:  {Name: "client_ip_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcMethodID:    {Name: "method_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcTargetID:    {Name: "target_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcStatus:      {Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcBytes:       {Name: "bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	rcUserAgentID: {Name: "user_agent_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcBotID:       {Name: "bot_id", Type: arrow.PrimitiveTypes.Int32},
	rcFileID:      {Name: "file_id", Type: arrow.PrimitiveTypes.Int32},
	rcLine:        {Name: "line", Type: arrow.PrimitiveTypes.Int64},
	rcPolicyID:    {Name: "policy_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcDecisionID:  {Name: "decision_id", Type: arrow.PrimitiveTypes.Int32},
	rcVisitBreach: {Name: "visit_breach", Type: arrow.FixedWidthTypes.Boolean},
	rcRobotsFetch: {Name: "robots_fetch", Type: arrow.FixedWidthTypes.Boolean},
	rcClaimID:     {Name: "claim_id", Type: arrow.PrimitiveTypes.Int32},
	rcTarget:      {Name: "target", Type: arrow.BinaryTypes.String, Nullable: true},
	rcUserAgent:   {Name: "user_agent", Type: arrow.BinaryTypes.String, Nullable: true},
	rcClientIP:    {Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
	// rcRetryAfter is the wait in seconds the answer's Retry-After asked
	// for (measure.ParseRetryAfter); NULL when none was logged or it could
	// not be read.
	rcRetryAfter: {Name: "retry_after_s", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	// pref_exposed: the crawler fetched, as robots.txt allowed, a path whose
	// AI-use preference in effect refuses its purpose (prefExposed).
	rcPrefExposed: {Name: "pref_exposed", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// DictSchema is the schema of table "dict": the strings behind the *_id
// columns of requests, policies and decisions.
var DictSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "value", Type: arrow.BinaryTypes.String},
}, nil)

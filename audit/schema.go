package audit

import "github.com/apache/arrow-go/v18/arrow"

// Column indices of RequestsSchema. The order is the order of the columns of
// table "requests" in queries/schema.sql: batches are inserted with
// "INSERT INTO requests SELECT * FROM view", which matches by position.
const (
	rcTS = iota
	rcHost
	rcClientIP
	rcMethod
	rcTarget
	rcStatus
	rcBytes
	rcUserAgent
	rcBot
	rcFile
	rcLine
	rcRobotsVersion
	rcRobotsGroup
	rcVerdict
	rcRule
	rcRuleLine
	rcCrawlDelay
	rcRateRequests
	rcRateSeconds
	rcVisitWindow
	rcVisitBreach
	rcRobotsFetch
	rcNumCols
)

var dictString = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// RequestsSchema is the Arrow schema of the judged bot requests the audit
// hands to DuckDB. Repeated strings are dictionary-encoded.
var RequestsSchema = arrow.NewSchema([]arrow.Field{
	rcTS:            {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	rcHost:          {Name: "host", Type: dictString, Nullable: true},
	rcClientIP:      {Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
	rcMethod:        {Name: "method", Type: dictString, Nullable: true},
	rcTarget:        {Name: "target", Type: arrow.BinaryTypes.String, Nullable: true},
	rcStatus:        {Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcBytes:         {Name: "bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	rcUserAgent:     {Name: "user_agent", Type: dictString, Nullable: true},
	rcBot:           {Name: "bot", Type: dictString},
	rcFile:          {Name: "file", Type: dictString},
	rcLine:          {Name: "line", Type: arrow.PrimitiveTypes.Int64},
	rcRobotsVersion: {Name: "robots_version", Type: dictString, Nullable: true},
	rcRobotsGroup:   {Name: "robots_group", Type: dictString, Nullable: true},
	rcVerdict:       {Name: "verdict", Type: dictString},
	rcRule:          {Name: "rule", Type: dictString, Nullable: true},
	rcRuleLine:      {Name: "rule_line", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcCrawlDelay:    {Name: "crawl_delay", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	rcRateRequests:  {Name: "rate_requests", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcRateSeconds:   {Name: "rate_seconds", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	rcVisitWindow:   {Name: "visit_window", Type: dictString, Nullable: true},
	rcVisitBreach:   {Name: "visit_breach", Type: arrow.FixedWidthTypes.Boolean},
	rcRobotsFetch:   {Name: "robots_fetch", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

package schema

import "github.com/reten-io/reten/ent/gqldoc"

// The GraphQL descriptions of the enum fields' values (ent/gqldoc).

var channelValues = map[string]string{
	"SALESMAN":   "Visit by a field salesman.",
	"CALLCENTER": "Call by a call-centre agent.",
	"WHATSAPP":   "WhatsApp message.",
	"EMAIL":      "Email.",
	"SMS":        "SMS text message.",
	"PUSH":       "Push notification to the commerce's app.",
}

var channelDoc = gqldoc.Enum("The channel an activity is carried out or delivered through.", channelValues)

var activityStatusValues = map[string]string{
	"READY":      "Created and ready to be dispatched or worked.",
	"UNRESOLVED": "A target user or attribute could not be resolved; a successful retry makes it READY.",
	"DISPATCHED": "Delivered to the dispatch provider.",
	"COMPLETED":  "Carried out (a COMPLETED or TRANSFERRED result); still accepts a result, which updates the existing one.",
	"CANCELED":   "Canceled (manually, or by a CANCELED result); accepts no result.",
	"FAILED":     "Not carried out (a NOT_EXECUTED result, dispatch attempts exhausted, or closed by the day cutoff); accepts no result.",
	"RETRYING":   "A dispatch attempt failed; another is scheduled at nextDispatchAt.",
}

var activityStatusDoc = gqldoc.Enum("A status of the activity status machine (SPEC \"Activity statuses\").", activityStatusValues)

var activityTypeDoc = gqldoc.Enum("The kind of an activity.", map[string]string{
	"TASK":    "Work done by an operator (a visit or a call), answered by an activity result.",
	"MESSAGE": "A message delivered through a channel.",
})

var statusEventTypeDoc = gqldoc.Enum("What caused an activity status event (SPEC \"Events\").", map[string]string{
	"CREATED":                  "Activity created with READY status.",
	"CREATION_FAILED":          "Activity creation failed.",
	"DISPATCH_ATTEMPT":         "Dispatch attempt started.",
	"DISPATCH_SUCCESS":         "Dispatched to the provider.",
	"DISPATCH_FAILED":          "Dispatch attempt failed.",
	"COMPLETED":                "Activity execution completed.",
	"CANCELED":                 "Activity manually canceled.",
	"FAILED":                   "Activity execution failed.",
	"RESOLUTION_FAILED":        "Target user or attribute resolution failed (the activity becomes UNRESOLVED).",
	"RESOLUTION_RETRY_SUCCESS": "A retry resolved all pending targets or attributes (the activity becomes READY).",
	"RESOLUTION_RETRY_FAILED":  "A retry did not resolve all pending targets or attributes.",
})

var resultSourceDoc = gqldoc.Enum("Whether a result is linked to an activity.", map[string]string{
	"RETEN_ACTIVITY": "Linked to an activity of the service.",
	"STANDALONE":     "Matches no activity; created with a commerce reference and exempt from the activity state and day rules.",
})

var resultStatusDoc = gqldoc.Enum("A status of the activity result status machine (SPEC \"Activity result statuses\"); every status but PENDING is terminal.", map[string]string{
	"PENDING":      "Not final yet; leaves the activity's status unchanged.",
	"COMPLETED":    "Carried out; completes the activity.",
	"NOT_EXECUTED": "Not carried out; fails the activity.",
	"CANCELED":     "Canceled; cancels the activity.",
	"TRANSFERRED":  "Handed over elsewhere; completes the activity.",
})

var contactDirectionDoc = gqldoc.Enum("Who initiated the contact of a task result.", map[string]string{
	"INBOUND":  "The merchant contacted the operator.",
	"OUTBOUND": "The operator contacted the merchant.",
})

var polarityDoc = gqldoc.Enum("How a tenant counts a result type.", map[string]string{
	"POSITIVE": "A positive outcome.",
	"NEGATIVE": "A negative outcome.",
})

var setOperatorDoc = gqldoc.Enum("How a query block or composed audience combines with what comes before it (SetOperatorEnum).", map[string]string{
	"UNION_DISTINCT":     "Rows in either, without duplicates.",
	"UNION_ALL":          "Rows in either, duplicates kept.",
	"INTERSECT_DISTINCT": "Rows in both, without duplicates.",
})

var recordSourceDoc = gqldoc.Enum("Who created a commerce address, user or contact.", map[string]string{
	"RETEN":       "Created through the service's own API or admin panel.",
	"INTEGRATION": "Created by an integration.",
})

var commerceUserRoleDoc = gqldoc.Enum("A role a person holds at a commerce.", map[string]string{
	"OWNER":        "Owner of the business.",
	"ORDERS":       "Places orders.",
	"FINANCE":      "Handles payments and invoices.",
	"ATTENTION":    "Attends customers.",
	"ADMIN":        "Administers the business.",
	"COMMERCE_REP": "Represents the commerce.",
	"OTHER":        "Any other role.",
})

var contactTypeDoc = gqldoc.Enum("A kind of contact.", map[string]string{
	"EMAIL":    "Email address.",
	"PHONE":    "Phone number.",
	"WHATSAPP": "WhatsApp number.",
	"OTHER":    "Any other way to reach the person.",
})

var datasetEngineDoc = gqldoc.Enum("The SQL dialect and driver of a tenant dataset.", map[string]string{
	"bigquery": "Google BigQuery.",
	"postgres": "PostgreSQL.",
	"sqlite":   "SQLite file.",
})

var tablePurposeDoc = gqldoc.Enum("What kind of rows a catalog table holds.", map[string]string{
	"EVENTS":       "Events (what event filters query).",
	"SUBJECTS":     "Subjects, such as commerces (what audiences select).",
	"PRODUCTS":     "Product properties.",
	"TRANSACTIONS": "Transactions.",
	"OTHER":        "Anything else.",
})

var columnTypeDoc = gqldoc.Enum("The data type of a catalog column (CatalogFieldTypeEnum, plus RECORD); it decides which comparison operators the column accepts.", map[string]string{
	"STRING":     "Text.",
	"TIMESTAMP":  "Instant.",
	"BOOLEAN":    "True or false.",
	"FLOAT64":    "Floating-point number.",
	"INT64":      "Integer.",
	"NUMERIC":    "Exact decimal number.",
	"BIGNUMERIC": "Exact decimal number of high precision.",
	"RECORD":     "A (repeated) record such as attributes or items, with sub-fields.",
})

var operatorTypeDoc = gqldoc.Enum("An operator's job.", map[string]string{
	"SALESMAN":   "Field salesman who visits commerces.",
	"ACTIVATOR":  "Field staff who activates new commerces.",
	"CALLCENTER": "Call-centre agent.",
})

var routeRoleDoc = gqldoc.Enum("An operator's role on a route.", map[string]string{
	"LEAD":   "Leads the route.",
	"MEMBER": "Works the route.",
})

var stageDoc = gqldoc.Enum("A lifecycle pillar, the stage of a retention state.", map[string]string{
	"ACTIVATION":   "Activation pillar: new commerces and their first actions.",
	"ENGAGEMENT":   "Engagement pillar: active commerces by their actions in a window.",
	"RESURRECTION": "Resurrection pillar: inactive commerces by days without actions.",
})

var agcStatusDoc = gqldoc.Enum("The lifecycle status of an AGC.", map[string]string{
	"draft":  "Being configured; not in use yet.",
	"active": "In use.",
	"paused": "Temporarily not in use.",
})

var aggregationMethodDoc = gqldoc.Enum("How the activation pillar counts actions.", map[string]string{
	"nunique":      "Distinct values of the source columns.",
	"count":        "Rows.",
	"sum":          "Sum of the source column.",
	"active_weeks": "Weeks with at least one action.",
})

var apiKeyScopeDoc = gqldoc.Enum("What an API key may act on.", map[string]string{
	"project": "One project (the key's projectID); no x-project-id header is needed.",
	"tenant":  "Every project of the tenant; project-scoped routes need x-project-id.",
})

var trashKindDoc = gqldoc.Enum("The kind of an archived record.", map[string]string{
	"AUDIENCE_CRITERIA":          "An audience.",
	"COMMERCE":                   "A commerce.",
	"OPERATOR":                   "An operator.",
	"ROUTE":                      "A route.",
	"SUPERVISOR":                 "A supervisor.",
	"ACTIVITY_GENERATION_CONFIG": "An activity generation config (with its pillars).",
	"EVENT_CRITERIA":             "An event filter.",
	"GENERATION_RULE":            "An activity generation rule.",
})

var runStatusDoc = gqldoc.Enum("Where a lifecycle engine run is.", map[string]string{
	"QUEUED":    "Waiting for a replica to claim it.",
	"RUNNING":   "A replica is computing it.",
	"SUCCEEDED": "Finished; its counts are final.",
	"FAILED":    "Stopped on an error (see error).",
})

var runTriggerDoc = gqldoc.Enum("Why a lifecycle engine run exists.", map[string]string{
	"MANUAL":    "Requested through the API or the CLI.",
	"SCHEDULED": "The tenant's daily run (lifecycle_run_time).",
})

var transitionSourceDoc = gqldoc.Enum("Who wrote a change of lifecycle state.", map[string]string{
	"ENGINE": "Reten's lifecycle engine (a run).",
	"API":    "A snapshot upsert through the API (an external engine).",
})

CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE t0.`event_timestamp` >= TIMESTAMP(DATETIME_SUB(DATETIME(CURRENT_TIMESTAMP()), INTERVAL 3 MONTH)) AND t0.`event_timestamp` <= CURRENT_TIMESTAMP() AND t0.`event_name` = @p0
)

CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE (t0.`event_name` = 'it\'s' OR t0.`event_name` = 'back\\slash \\\' quote' OR t0.`event_name` = 'line\nbreak\r\ttab' OR t0.`event_name` = 'ctrl\u0001\u001f\u007f\u2028end' OR t0.`event_name` = 'ñandú 🚀 "double" `tick` @p0 ? --' OR STRPOS(t0.`event_name`, '%_*') > 0)
)

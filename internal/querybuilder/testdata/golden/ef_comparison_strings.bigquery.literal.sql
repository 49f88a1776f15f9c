CTE_VALID_EVENTS AS (
  SELECT t0.`event_id` AS `event_id`
  FROM `my-project.analytics.events` AS t0
  WHERE (t0.`event_name` = 'purchase' AND t0.`platform` <> 'web' AND STRPOS(t0.`session_id`, 'abc') > 0 AND STRPOS(t0.`session_id`, 'test') = 0 AND STARTS_WITH(t0.`event_id`, 'ev_') AND ENDS_WITH(t0.`event_id`, '_1') AND t0.`platform` IN ('android', 'ios') AND t0.`platform` NOT IN ('backend') AND t0.`event_name` > 'a' AND t0.`event_name` BETWEEN 'a' AND 'm')
)

CTE_VALID_EVENTS AS (
  (
    SELECT t0.`event_id` AS `event_id`, t1.`city` AS `city`
    FROM `my-project.analytics.events` AS t0
    INNER JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
    LEFT JOIN `my-project.analytics.transactions` AS t2 ON t1.`commerce_id` = t2.`commerce_id`
    WHERE t1.`segment` = @p0
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`, t1.`city` AS `city`
    FROM `my-project.analytics.events` AS t0
    LEFT JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
    WHERE t1.`segment` = @p1
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`, t1.`city` AS `city`
    FROM `my-project.analytics.events` AS t0
    RIGHT JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
    WHERE t1.`segment` = @p2
  )
  UNION ALL
  (
    SELECT t0.`event_id` AS `event_id`, t1.`city` AS `city`
    FROM `my-project.analytics.events` AS t0
    FULL JOIN `my-project.analytics.commerces` AS t1 ON t0.`commerce_id` = t1.`commerce_id`
    WHERE t1.`segment` = @p3
  )
)

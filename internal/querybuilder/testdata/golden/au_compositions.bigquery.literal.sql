CTE_VALID_EVENTS AS (
  (
    (
      SELECT a0.`subject` AS `subject` FROM (
        SELECT t0.`commerce_id` AS `subject`, t0.`city` AS `city`
        FROM `my-project.analytics.commerces` AS t0
        WHERE t0.`city` = 'Lima'
      ) AS a0
    )
    INTERSECT DISTINCT
    (
      SELECT a3.`commerce_id` AS `subject` FROM (
        (
          SELECT a1.`commerce_id` AS `commerce_id` FROM (
            SELECT t0.`commerce_id` AS `commerce_id`
            FROM `my-project.analytics.events` AS t0
            WHERE t0.`event_name` = 'purchase'
          ) AS a1
        )
        UNION DISTINCT
        (
          SELECT a2.`commerce_id` AS `commerce_id` FROM (
            SELECT t0.`commerce_id` AS `commerce_id`
            FROM `my-project.analytics.transactions` AS t0
            WHERE t0.`status` = 'completed'
          ) AS a2
        )
      ) AS a3
    )
  )
  UNION ALL
  (
    SELECT a4.`commerce_id` AS `subject` FROM (
      SELECT t0.`commerce_id` AS `commerce_id`
      FROM `my-project.analytics.commerces` AS t0
      WHERE t0.`credit_limit` >= NUMERIC '10000'
    ) AS a4
  )
)

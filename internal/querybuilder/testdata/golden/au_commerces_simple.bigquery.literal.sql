CTE_VALID_EVENTS AS (
  SELECT t0.`commerce_id` AS `commerce_id`
  FROM `my-project.analytics.commerces` AS t0
  WHERE t0.`created_at` >= TIMESTAMP(DATETIME_SUB(DATETIME(CURRENT_TIMESTAMP()), INTERVAL 6 MONTH)) AND t0.`created_at` <= CURRENT_TIMESTAMP() AND (t0.`is_active` = TRUE AND t0.`segment` IN ('pharmacy', 'bakery'))
)

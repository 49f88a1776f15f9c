CTE_VALID_EVENTS AS (
  SELECT t0.`commerce_id` AS `commerce_id`, t0.`viewed_at` AS `viewed_at`
  FROM `my-project.analytics.page_views` AS t0
  WHERE t0.`viewed_at` >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 28 DAY) AND t0.`viewed_at` <= CURRENT_TIMESTAMP() AND EXISTS (SELECT 1 FROM `my-project.analytics.product_properties` AS s0 WHERE s0.`product_id` = t0.`product_id` AND (STARTS_WITH(s0.`brand`, @p0) OR s0.`price` < @p1))
)

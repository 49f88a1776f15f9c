package dayclose

// SetBatchSize changes how many activities one transaction closes (tests
// exercise several batches with a handful of rows).
func (s *Service) SetBatchSize(n int) { s.batch = n }

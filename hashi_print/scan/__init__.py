"""Reading photographed sheets: markers -> homography -> fields -> the most probable consistent reading."""
